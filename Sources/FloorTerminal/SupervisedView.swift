import FloorSession

extension ViewLoop {
    /// `floorhost view` once the page is open: runs `viewer` in `terminal` (entered here, restored before
    /// returning) from `offset`, or from where the supervised attempt before this one was drawing (a plugin
    /// failed on a floor there); every frame's offset is noted for the next attempt. On quit, `report` holds
    /// the lines for stderr: the page's diagnostics and what was loaded.
    package static func run(
        _ viewer: PageViewer, host: FloorHost, terminal: RawTerminal, from offset: Double,
        pluginFolder: String, options: Options
    ) -> (ending: Ending, report: [String]) {
        let start = host.supervisedViewOffset ?? offset
        if start > 0 { viewer.resume(at: start) }
        var options = options
        options.beforeFrame = { host.supervisedViewOffset = $0 }
        terminal.enter()
        let ending = run(viewer, terminal: terminal, pluginFolder: pluginFolder, options: options)
        terminal.restore()
        guard ending == .quit else { return (ending, []) }
        return (
            ending,
            host.diagnostics(for: viewer.adapter).map { "\($0.level.rawValue): \($0.message)" } + [viewer.summary]
        )
    }
}
