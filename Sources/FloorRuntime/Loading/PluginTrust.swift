import FloorCore
import FoundationEssentials

/// Which plugin libraries of a folder may be opened at all, before any of their code runs (not even in
/// a scanning child): see PluginPermissions and PluginLock. A refused library is one error line naming
/// it and the fix; the other libraries load.
public struct PluginTrust: Sendable {
    /// Load libraries others could have changed anyway (`--allow-insecure-plugins`), with a warning
    /// every run and one per library it lets through.
    public var allowInsecure: Bool
    /// Require plugins.lock (`--locked`): without it the folder is unusable.
    public var locked: Bool
    /// The plugin scan cache (PluginScanCache) whose libraries count as trusted before a newcomer's when two
    /// register one floor type (PluginStanding); nil: none.
    public var scanCache: String?

    public init(allowInsecure: Bool = false, locked: Bool = false, scanCache: String? = nil) {
        self.allowInsecure = allowInsecure
        self.locked = locked
        self.scanCache = scanCache
    }

    /// A library that may be opened, and how far it was trusted before this run.
    public struct Trusted: Sendable, Equatable {
        public let path: String
        public let standing: PluginStanding
    }

    /// The libraries of `libraries` (found under `folder`) that may be opened, the most trusted first
    /// (PluginStanding: the order they load in), and what to tell about the others. Throws when the folder's
    /// lock file is required and missing, unreadable, or not safe. `knownBy` is `scanCache`'s file as the
    /// caller already read it (a supervised run reads it once, for this and for the scans); nil: read here.
    public func vet(_ libraries: [String], in folder: String, knownBy read: PluginScanCache? = nil)
        throws(PluginDiscovery.Failure) -> (trusted: [Trusted], diagnostics: [Diagnostic])
    {
        var diagnostics: [Diagnostic] = []
        if allowInsecure {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "--allow-insecure-plugins: plugin libraries that others can change are loaded anyway; they run with your rights",
                    file: folder))
        }
        let lock: PluginLock?
        do {
            lock = try PluginLock.read(folder: folder)
        } catch {
            throw PluginDiscovery.Failure(message: error.message)
        }
        let lockFile = PluginLock.file(in: folder)
        if lock == nil && locked {
            throw PluginDiscovery.Failure(
                message:
                    "\(lockFile): no plugin lock file, and --locked requires one; review the plugins, then run `floorhost lock --plugins \(folder)`"
            )
        }
        if lock != nil, let problem = PluginPermissions.problem(library: lockFile, folder: folder), !allowInsecure {
            throw PluginDiscovery.Failure(message: "\(lockFile): refused: \(problem)")
        }
        var trusted: [Trusted] = []
        let cache = read ?? scanCache.map { PluginScanCache(file: $0) }
        for library in libraries {
            if let problem = PluginPermissions.problem(library: library, folder: folder) {
                guard allowInsecure else {
                    diagnostics.append(
                        Diagnostic(
                            .error, "\(library): refused: \(problem) (or pass --allow-insecure-plugins)", file: library)
                    )
                    continue
                }
                diagnostics.append(
                    Diagnostic(
                        .warning, "\(library): loaded although \(problem) (--allow-insecure-plugins)", file: library))
            }
            if let lock,
                let refusal = lock.refusal(
                    library: library, folder: folder, sha256: LibraryDigest.sha256(ofFile: library))
            {
                diagnostics.append(Diagnostic(.error, "\(library): refused: \(refusal)", file: library))
                continue
            }
            // Past the lock's check, a library is pinned exactly when there is a lock.
            trusted.append(
                Trusted(
                    path: library, standing: PluginStanding(pinned: lock != nil, knownSince: cache?.knownSince(library))
                ))
        }
        return (PluginStanding.ordered(trusted) { ($0.standing, $0.path) }, diagnostics)
    }
}
