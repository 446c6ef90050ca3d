import FloorCore
import FoundationEssentials

/// Finds plugin libraries: every `*.so` under a folder, at most `maxDepth` folders down, in path order
/// (so that which plugin wins a duplicate type name never depends on the file system's listing order).
public enum PluginDiscovery {
    public static let defaultMaxDepth = 4

    public struct Failure: Error, Sendable { public let message: String }

    /// What to do about a plugin folder that is missing or holds nothing, for commands that take `--plugins`.
    public static let pluginsOptionAdvice =
        "pass --plugins with the folder that holds the plugin .so files (Scripts/floorhost builds them and installs them into Plugins/)"

    /// The libraries in `folder` (or `folder` itself when it is a `.so` file). A path that does not exist
    /// throws "`folder`: no such `what`; `advice`" (what the command's user should do instead).
    public static func libraries(
        in folder: String, maxDepth: Int = defaultMaxDepth, what: String = "plugin folder",
        advice: String = pluginsOptionAdvice
    ) throws(Failure) -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw Failure(message: "\(folder): no such \(what); \(advice)")
        }
        guard isFolder else {
            return folder.hasSuffix(".so") ? [folder] : []
        }
        var found: [String] = []
        collect(folder, depth: 0, maxDepth: maxDepth, into: &found)
        return found.sorted()
    }

    /// The error a render or check starts with when `folder` yielded no library: every floor would
    /// otherwise only be an "unknown floor type" line.
    public static func nothingFound(in folder: String) -> Diagnostic {
        var isFolder = false
        _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        let what =
            isFolder
            ? "it holds no plugin libraries (*.so, searched \(defaultMaxDepth) folders deep)"
            : "it is a file, not a folder of plugin libraries (nor a .so file)"
        return Diagnostic(
            .error, "no plugins found in \(folder): \(what), so no floor can be drawn; \(pluginsOptionAdvice)",
            file: folder)
    }

    private static func collect(_ folder: String, depth: Int, maxDepth: Int, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isFolder = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder {
                if depth < maxDepth { collect(path, depth: depth + 1, maxDepth: maxDepth, into: &found) }
            } else if name.hasSuffix(".so") {
                found.append(path)
            }
        }
    }
}
