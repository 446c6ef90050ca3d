import FloorCore
import FloorRuntime
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What `floorhost view` reloads for: the page files it has read and the plugin libraries in the plugin
/// folder, each by size and modification time (nanoseconds), compared with what they were when last seen.
/// An editor that saves by renaming a new file into place counts as a change too.
public struct WatchedFiles: Sendable {
    private let pluginFolder: String
    private var pages: [String: Stamp]
    private var plugins: [String: Stamp]

    package struct Stamp: Equatable, Sendable {
        package let size: Int64
        package let modified: Int64
        package let inode: UInt64
    }

    public init(pages: [String], pluginFolder: String) {
        self.pluginFolder = pluginFolder
        self.pages = Self.stamps(pages)
        plugins = Self.stamps(Self.libraries(in: pluginFolder))
    }

    /// Whether a plugin library was added, removed or changed since `init` (a loaded library cannot be
    /// replaced in this process: the view starts a fresh one).
    public var pluginsChanged: Bool { Self.stamps(Self.libraries(in: pluginFolder)) != plugins }

    /// Whether a page file changed since the last call (or `init`); `current` is the set of page files the
    /// view has read now, which becomes the watched set.
    public mutating func pagesChanged(current: [String]) -> Bool {
        let now = Self.stamps(current)
        defer { pages = now }
        return now.contains { path, stamp in pages[path].map { $0 != stamp } ?? false }
    }

    private static func libraries(in folder: String) -> [String] {
        (try? PluginDiscovery.libraries(in: folder)) ?? []
    }

    private static func stamps(_ paths: [String]) -> [String: Stamp] {
        Dictionary(
            paths.compactMap { path -> (String, Stamp)? in
                var info = stat()
                guard stat(WorkingDirectory.absolute(path), &info) == 0 else { return nil }
                return (
                    path,
                    Stamp(
                        size: Int64(info.st_size),
                        modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                        inode: UInt64(info.st_ino))
                )
            }, uniquingKeysWith: { first, _ in first })
    }
}
