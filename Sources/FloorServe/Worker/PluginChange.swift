/// What changed in a plugin folder between two looks, for the log line: `libFoo.so added, libBar.so
/// rebuilt, libBaz.so removed` (file names, in path order).
package enum PluginChange {
    package static func describe(from before: [String: FileStamp?], to now: [String: FileStamp?]) -> String {
        func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        var parts: [String] = []
        for path in Set(before.keys).union(now.keys).sorted() {
            switch (before[path], now[path]) {
            case (nil, _?): parts.append(name(path) + " added")
            case (_?, nil): parts.append(name(path) + " removed")
            case (let old?, let new?) where old != new:
                parts.append(name(path) + Self.change(from: old, to: new))
            default: break
            }
        }
        return parts.isEmpty ? "the plugin folder changed" : parts.joined(separator: ", ")
    }

    /// " rebuilt", or, when only the mode changed (a chmod), "'s mode changed to 777".
    private static func change(from old: FileStamp?, to new: FileStamp?) -> String {
        guard let old, let new, old.inode == new.inode, old.size == new.size, old.modified == new.modified else {
            return " rebuilt"
        }
        return "'s mode changed to " + String(new.mode & 0o7777, radix: 8)
    }
}
