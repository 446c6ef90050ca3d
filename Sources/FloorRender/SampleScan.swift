import FloorCore
import FloorLayout
import FloorRuntime

/// The scanning child's side of PluginScanner: drawing is what finds a cell selector that crashes, and
/// drawing needs a backend, so this stage lives here, above the plugin runtime that starts the child.
extension PluginScanner {
    /// The child side (`floorhost scan-plugin LIBRARY`): loads `library` into a fresh registry here, then
    /// decodes, lays out (375 points) and draws the sample floors its floor types registered, saying
    /// before each stage what it is about to do on the original stdout. Anything the plugin prints goes
    /// to stderr. Returns the exit status (0).
    public static func scanHere(_ library: String) -> Int32 {
        let channel = ParentChannel()
        func say(_ line: String) { channel.send(line) }
        let registry = Registry()
        _ = PluginLoader.loadSteps(library, into: registry) { loadStep in
            switch loadStep {
            case .open: say(stepPrefix + "opening it (dlopen)")
            case .entrySymbol: say(stepPrefix + "calling floor_plugin_entry()")
            case .registration: say(stepPrefix + "registering its types (init)")
            default: break
            }
        }
        if let plugin = registry.plugins.firstIndex(where: { $0.path == library }) {
            let samples = registry.floorTypes.enumerated()
                .filter {
                    $0.element.plugin == plugin && registry.floorTypeID(named: $0.element.name) == Int32($0.offset)
                }
                .compactMap(\.element.sampleJSON)
            if !samples.isEmpty {
                let json = "{\"floors\":[" + samples.joined(separator: ",") + "]}"
                say(stepPrefix + "decoding its sample floors")
                if let page = try? PageDecoder.decode(
                    bytes: Array(json.utf8), file: library + " (samples)", registry: registry)
                {
                    say(stepPrefix + "laying out its sample floors (expand, height)")
                    let adapter = Adapter(page: page, registry: registry, width: 375)
                    // In chunks of rows, each a step, so many quick cells never look like one that hangs.
                    let rowCount = adapter.rowCount
                    for start in stride(from: 0, to: max(rowCount, 1), by: rowsPerStep) {
                        let end = min(rowCount, start + rowsPerStep)
                        say(
                            stepPrefix + "drawing its sample floors (cell)"
                                + (rowCount > rowsPerStep ? ", rows \(start)-\(end - 1) of \(rowCount)" : ""))
                        guard end > start else { break }
                        let top = adapter.row(start).top
                        let viewport = Viewport(width: 375, height: adapter.row(end - 1).bottom - top, offset: top)
                        _ = TextRenderer.render(adapter, viewport: viewport, columns: 75)
                    }
                }
            }
        }
        say(doneLine)
        return 0
    }
}
