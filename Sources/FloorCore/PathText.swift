import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// File paths as text, spelled exactly as Foundation's NSString path methods spelled them (appending a
/// component, the folder part, the last component, the standardized form, the home folder), which
/// floorhost used until it stopped linking Foundation (ARCHITECTURE.md, "Two executables"): lock files,
/// the scan cache, page roots and page locations keep the spellings they had.
package enum PathText {
    /// `path` and `component` joined by one slash (none added when `path` ends in one; `component` alone
    /// when `path` is empty): NSString's appendingPathComponent.
    package static func appending(_ component: String, to path: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// Runs of slashes made one, and a trailing slash dropped ("/" stays "/").
    private static func fixingSlashes(_ path: String) -> String {
        if path == "/" { return path }
        var result = ""
        var previousSlash = false
        for character in path {
            if character == "/" && previousSlash { continue }
            previousSlash = character == "/"
            result.append(character)
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// The last component: "b" for "/a/b/", "/" for "/", "" for "": NSString's lastPathComponent.
    package static func lastComponent(of path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed.count <= 1 { return fixed }
        return String(fixed[(fixed.lastIndex(of: "/").map { fixed.index(after: $0) } ?? fixed.startIndex)...])
    }

    /// The path without its last component: "/a" for "/a/b", "/" for "/a", "" for "a": NSString's
    /// deletingLastPathComponent.
    package static func deletingLastComponent(of path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return "" }
        if slash == fixed.startIndex { return "/" }
        return String(fixed[..<slash])
    }

    /// The current user's home folder: $HOME when set and not empty, else the password database's.
    package static var homeDirectory: String {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        if let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir { return String(cString: folder) }
        return "/"
    }

    /// NSString's standardizingPath: a leading `~` or `~user` expanded; then, component by component, "."
    /// and empty components dropped, ".." taking off the component before it (in an absolute path only:
    /// a relative path keeps its ".."), and each prefix that is a symbolic link to an absolute path
    /// replaced by that path (a link to a relative path is kept as it is); last, a "/private" or
    /// "/var/automount" prefix dropped when the path without it exists (what Foundation did on every
    /// platform, for macOS's sake).
    package static func standardized(_ path: String) -> String {
        let expanded = expandingTilde(path)
        var components: [String] = expanded.hasPrefix("/") ? ["/"] : []
        components += expanded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else { return expanded }
        let absolute = expanded.hasPrefix("/") || expanded.hasPrefix("~")
        var resolved = components.removeFirst()
        for component in components {
            switch component {
            case ".": break
            case ".." where absolute: resolved = deletingLastComponent(of: resolved)
            default:
                resolved = appending(component, to: resolved)
                // Foundation followed a link only to an absolute destination; one to a relative path stays.
                if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: resolved),
                    destination.hasPrefix("/")
                {
                    resolved = destination
                }
            }
        }
        resolved = removingPrefix("/private", from: resolved) ?? resolved
        return removingPrefix("/var/automount", from: resolved) ?? resolved
    }

    /// `path` without `prefix` when it starts with it and what remains names an existing file.
    private static func removingPrefix(_ prefix: String, from path: String) -> String? {
        guard path != prefix, path.hasPrefix(prefix) else { return nil }
        let rest = String(path.dropFirst(prefix.count))
        return FileManager.default.fileExists(atPath: rest) ? rest : nil
    }

    private static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~") else { return path }
        let endOfUser = path.firstIndex(of: "/") ?? path.endIndex
        let user = String(path[path.index(after: path.startIndex)..<endOfUser])
        let home: String?
        if user.isEmpty {
            home = homeDirectory
        } else if let entry = getpwnam(user), let folder = entry.pointee.pw_dir {
            home = String(cString: folder)
        } else {
            home = nil
        }
        guard let home else { return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path }
        let result = home + path[endOfUser...]
        return result.count > 1 && result.hasSuffix("/") ? String(result.dropLast()) : result
    }
}
