import FloorRuntime
import FloorSession

extension ViewLoop {
    /// `floorhost view` once its plugins are loaded: opens `page` at the terminal's size (a page that cannot
    /// be used throws) and runs it in `terminal` (entered here, restored before returning) from `offset`, or
    /// from where the supervised attempt before this one was drawing (a plugin failed on a floor there);
    /// every frame's offset is noted for the next attempt. On quit, `report` holds the lines for stderr:
    /// the page's diagnostics and what was loaded.
    package static func open(
        _ page: String, host: FloorHost, root: PageRoot, remote: RemotePageClient, session: Session,
        terminal: RawTerminal, from offset: Double, pluginFolder: String, options: Options
    ) throws(PageError) -> (ending: Ending, report: [String]) {
        let size = terminal.size
        let viewer = try PageViewer(
            host: host, page: page, root: root, remote: remote, columns: size.columns, lines: size.lines,
            prefetch: session.prefetch, retries: session.retries, impressions: session.impressions,
            width: session.width)
        viewer.styled = session.styled
        let start = host.supervisedViewOffset ?? offset
        if start > 0 { viewer.resume(at: start) }
        var options = options
        options.beforeFrame = { host.supervisedViewOffset = $0 }
        terminal.enter()
        let ending = run(viewer, terminal: terminal, pluginFolder: pluginFolder, options: options)
        terminal.restore()
        guard ending == .quit || ending == .interrupted else { return (ending, []) }
        return (
            ending,
            host.diagnostics(for: viewer.adapter).map { $0.line } + [viewer.summary]
        )
    }

    /// How the viewer's session loads and draws (the view's --prefetch, --retry, --impression, --color,
    /// --width).
    package struct Session {
        package var prefetch: Prefetch
        package var retries: Int
        package var impressions: ImpressionRule?
        package var styled: Bool
        package var width: Double?

        package init(prefetch: Prefetch, retries: Int, impressions: ImpressionRule?, styled: Bool, width: Double?) {
            (self.prefetch, self.retries, self.impressions, self.styled) = (prefetch, retries, impressions, styled)
            self.width = width
        }
    }
}
