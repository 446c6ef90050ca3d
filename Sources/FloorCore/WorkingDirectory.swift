import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The folder floorhost was started in: what a relative path on its command line, or a page's relative
/// `next`, means. Plugin code can change the process's working directory (chdir); the host therefore
/// resolves page paths against this folder rather than the current one, and puts the process back here
/// after each plugin's `init`, naming the plugin. `capture()` runs first thing in `main`, before any plugin.
public enum WorkingDirectory {
    public static let launch: String = FileManager.default.currentDirectoryPath

    /// Remembers the current folder as the launch folder. Idempotent.
    public static func capture() { _ = launch }

    /// `path` made absolute against the launch folder.
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (launch.hasSuffix("/") ? launch : launch + "/") + path
    }

    /// Changes back to the launch folder when plugin code moved the process elsewhere: true when it had.
    package static func restore() -> Bool {
        guard FileManager.default.currentDirectoryPath != launch else { return false }
        _ = chdir(launch)
        return true
    }
}
