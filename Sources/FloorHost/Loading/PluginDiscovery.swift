import Foundation

/// Finds plugin libraries: every `*.so` under a folder, at most `maxDepth` folders down, in path order
/// (so that which plugin wins a duplicate type name never depends on the file system's listing order).
public enum PluginDiscovery {
    public static let defaultMaxDepth = 4

    public struct Failure: Error, Sendable { public let message: String }

    public static func libraries(in folder: String, maxDepth: Int = defaultMaxDepth) throws(Failure) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw Failure(message: "\(folder): no such plugin folder; pass --plugins with the folder that holds the plugin .so files (Scripts/floorhost installs them into Plugins/)")
        }
        guard isFolder.boolValue else {
            return folder.hasSuffix(".so") ? [folder] : []
        }
        var found: [String] = []
        collect(folder, depth: 0, maxDepth: maxDepth, into: &found)
        return found.sorted()
    }

    private static func collect(_ folder: String, depth: Int, maxDepth: Int, into found: inout [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if depth < maxDepth { collect(path, depth: depth + 1, maxDepth: maxDepth, into: &found) }
            } else if name.hasSuffix(".so") {
                found.append(path)
            }
        }
    }
}
