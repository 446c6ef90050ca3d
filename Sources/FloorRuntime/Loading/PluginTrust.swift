import FloorCore
import Foundation

/// Which plugin libraries of a folder may be opened at all, before any of their code runs (not even in
/// a scanning child): see PluginPermissions and PluginLock. A refused library is one error line naming
/// it and the fix; the other libraries load.
public struct PluginTrust: Sendable {
    /// Load libraries others could have changed anyway (`--allow-insecure-plugins`), with a warning
    /// every run and one per library it lets through.
    public var allowInsecure: Bool
    /// Require plugins.lock (`--locked`): without it the folder is unusable.
    public var locked: Bool

    public init(allowInsecure: Bool = false, locked: Bool = false) {
        self.allowInsecure = allowInsecure
        self.locked = locked
    }

    /// The libraries of `libraries` (found under `folder`) that may be opened, and what to tell about the
    /// others. Throws when the folder's lock file is required and missing, unreadable, or not safe.
    public func vet(_ libraries: [String], in folder: String) throws(PluginDiscovery.Failure) -> (
        trusted: [String], diagnostics: [Diagnostic]
    ) {
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
        var trusted: [String] = []
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
            trusted.append(library)
        }
        return (trusted, diagnostics)
    }
}
