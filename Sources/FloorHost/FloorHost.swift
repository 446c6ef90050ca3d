/// The host as a library: plugins loaded from a folder, pages laid out with them. The CLI is wiring over
/// this; tests call it directly.
public final class FloorHost: @unchecked Sendable {
    public let registry = Registry()
    /// One diagnostic per plugin library that did not load (or loaded with refused registrations).
    public let loadDiagnostics: [Diagnostic]

    /// Loads every plugin under `pluginFolder`. Throws only when the folder itself is unusable.
    public init(pluginFolder: String) throws(PluginDiscovery.Failure) {
        loadDiagnostics = try PluginLoader.loadFolder(pluginFolder, into: registry)
    }

    /// Loaded plugins, in load order, without the host's built-in rows.
    public var plugins: [PluginInfo] { registry.plugins.filter { $0.id != BuiltinRows.pluginID } }

    /// Decodes and lays out a page at `width` points.
    public func layout(page file: String, width: Double, dispatch: DispatchMode = .typed) throws(PageError) -> Adapter {
        Adapter(page: try PageDecoder.decode(file: file, registry: registry), registry: registry, width: width,
                dispatch: dispatch)
    }

    /// Everything worth telling about a run, in the order it happened.
    public func diagnostics(for adapter: Adapter) -> [Diagnostic] {
        loadDiagnostics + registry.pluginMessages + adapter.page.diagnostics + adapter.diagnostics
    }
}
