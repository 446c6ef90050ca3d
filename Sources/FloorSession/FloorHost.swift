import FloorCore
import FloorLayout
import FloorRuntime

/// The host as a library: plugins loaded from a folder, pages laid out with them. The CLI is wiring over
/// this; tests call it directly.
public final class FloorHost: @unchecked Sendable {
    public let registry = Registry()
    /// One diagnostic per plugin library that did not load (or loaded with refused registrations).
    public let loadDiagnostics: [Diagnostic]

    /// Loads every plugin under `pluginFolder` that `trust` lets through (see PluginTrust: no library
    /// others can change, and only what plugins.lock pins when the folder has one). Throws only when the
    /// folder itself (or its required lock file) is unusable.
    ///
    /// With `isolation`, each library new or changed since its last scan is first scanned in a child
    /// process; one that crashed or hung there is not opened in this process (one error diagnostic says
    /// why, and that it is retried when the file changes). Without it, every library is opened here
    /// directly, as library callers and tests expect.
    public init(pluginFolder: String, isolation: PluginIsolation? = nil, trust: PluginTrust = PluginTrust())
        throws(PluginDiscovery.Failure)
    {
        let found = try PluginDiscovery.libraries(in: pluginFolder)
        let nothing = found.isEmpty ? [PluginDiscovery.nothingFound(in: pluginFolder)] : []
        var trust = trust
        if trust.scanCache == nil { trust.scanCache = isolation?.cacheFile }
        guard let isolation else {
            loadDiagnostics = nothing + (try PluginLoader.loadFolder(pluginFolder, into: registry, trust: trust))
            armExitGuard()
            return
        }
        // The scan cache read once: vetting asks it since when each library is known, the scans what it is.
        let cache = PluginScanCache(file: isolation.cacheFile)
        let (libraries, vetting) = try trust.vet(
            found, in: pluginFolder, knownBy: trust.scanCache == isolation.cacheFile ? cache : nil)
        var diagnostics = nothing + vetting
        // The most trusted first (PluginTrust.vet): a floor type two plugins register stays the first's.
        for library in libraries {
            switch PluginScanner.decide(library.path, isolation: isolation, cache: cache) {
            case .skip(let why):
                diagnostics.append(why)
            case .load(let note):
                diagnostics +=
                    (note.map { [$0] } ?? [])
                    + PluginLoader.load(library.path, into: registry, standing: library.standing)
            }
        }
        do {
            try cache.save()
        } catch {
            diagnostics.append(Diagnostic(.warning, error.message, file: cache.file))
        }
        loadDiagnostics = diagnostics
        armExitGuard()
    }

    /// In a process no supervisor watches, a plugin that ends it inside a call is named (PluginExitGuard).
    private func armExitGuard() {
        PluginExitGuard.arm { [weak registry] in registry?.callInProgress() }
    }

    /// Runs as a supervised child (PageSupervisor): notes every plugin call in the crash record open at
    /// `descriptor`, and shows a placeholder instead of each floor in `skipped`.
    public func recordPluginCalls(in descriptor: Int32, skipping skipped: [SkippedFloor]) throws(CrashRecord.Failure) {
        registry.crashRecord = try CrashRecord(sharedDescriptor: descriptor)
        registry.skippedFloors = Dictionary(skipped.map { ($0.origin, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where a supervised `floorhost view` was scrolled when its process last began a frame, kept in the crash
    /// record across attempts: a view restarted after a plugin failed on a floor resumes there. Nil when not
    /// supervised or before the first frame.
    public var supervisedViewOffset: Double? {
        get { registry.crashRecord.viewOffset }
        set { registry.crashRecord.viewOffset = newValue }
    }

    /// Numbers every page decoded from now on by `ordinal(file)` instead of in decode order (see
    /// FloorOrigin): the serve worker gives each page file one number for the server's lifetime, so a floor
    /// a plugin crashed on is skipped again in the fresh worker that replays the page. Called before any
    /// page is decoded; `ordinal` runs on the decoding thread, before the page's first plugin call.
    public func numberPages(by ordinal: @escaping (String) -> Int32) {
        registry.pageOrdinal = ordinal
    }

    /// Loaded plugins, in load order, without the host's built-in rows.
    public var plugins: [PluginInfo] { registry.plugins.filter { $0.id != BuiltinRows.pluginID } }

    /// Decodes and lays out a page at `width` points, from wherever PageSource says `file` is: read through
    /// `root` (default: the page's folder), or fetched by `remote` (waiting for it) when it is an http(s)
    /// URL, and then named (and its next resolved) by the URL that answered, after any redirects.
    public func layout(
        page file: String, root: PageRoot? = nil, remote: RemotePageClient? = nil, width: Double,
        dispatch: DispatchMode = .typed
    ) throws(PageError) -> Adapter {
        try layout(page: file, root: root, remote: remote, width: width, dispatch: dispatch, measuring: .now)
    }

    /// `layout`, with the rows measured as `measuring` says (Adapter.Measuring).
    package func layout(
        page file: String, root: PageRoot?, remote: RemotePageClient?, width: Double, dispatch: DispatchMode,
        measuring: Adapter.Measuring
    ) throws(PageError) -> Adapter {
        let page = try pageSource(root: root, remote: remote).rooted(at: file).load(file).get()
        return Adapter(page: page, registry: registry, width: width, dispatch: dispatch, measuring: measuring)
    }

    /// A CMS's own fields (`--allow-field`), which no page this host decodes is warned about. Set before the
    /// first page is decoded.
    public var allowedFields = AllowedFields()

    /// Where this host's pages come from: `root` and `remote` as PageSource takes them, with its allowed
    /// fields. Every front end reads its pages through one.
    public func pageSource(root: PageRoot? = nil, remote: RemotePageClient? = nil) -> PageSource {
        PageSource(registry: registry, root: root, remote: remote, allowed: allowedFields)
    }

    /// Everything worth telling about a run, in the order it happened, as a person reads it: one problem
    /// at many places is one diagnostic with its count (Diagnostic.grouped).
    public func diagnostics(for adapter: Adapter) -> [Diagnostic] {
        Diagnostic.grouped(everyDiagnostic(for: adapter))
    }

    /// Every diagnostic of a run, one per place, in the order it happened (what marks each left-out item).
    public func everyDiagnostic(for adapter: Adapter) -> [Diagnostic] {
        loadDiagnostics + registry.pluginMessages + adapter.page.diagnostics + adapter.diagnostics
    }
}
