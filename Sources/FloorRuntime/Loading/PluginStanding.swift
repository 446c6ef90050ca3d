/// How far a plugin library was trusted before this run: what decides which of two plugins keeps a floor
/// type both register (docs/ABI.md, "Type names"). The one already trusted keeps it: pinned in plugins.lock,
/// else known to the scan cache (the one known longer), else the first by path. Libraries load in this order
/// (`PluginTrust.vet`), so the first to register a floor type is the one that keeps it.
public struct PluginStanding: Sendable, Equatable {
    /// plugins.lock pins the library.
    public var pinned: Bool
    /// When the scan cache first knew a library at this path (seconds since 1970); nil when it does not.
    public var knownSince: Double?

    public init(pinned: Bool = false, knownSince: Double? = nil) {
        self.pinned = pinned
        self.knownSince = knownSince
    }

    /// True when a library of this standing at `path` loads before one of `other` at `otherPath`.
    package func precedes(_ other: PluginStanding, path: String, otherPath: String) -> Bool {
        if pinned != other.pinned { return pinned }
        switch (knownSince, other.knownSince) {
        case (let mine?, let theirs?) where mine != theirs: return mine < theirs
        case (.some, nil): return true
        case (nil, .some): return false
        default: return path < otherPath
        }
    }

    /// Why a library of this standing keeps a floor type against one of `newcomer`'s, in words.
    package func reason(against newcomer: PluginStanding) -> String {
        if pinned && !newcomer.pinned { return "it is pinned in plugins.lock and the other is not" }
        if let since = knownSince, newcomer.knownSince.map({ since < $0 }) ?? true {
            return "the plugin scan cache knew it first"
        }
        return "it comes first by path (neither is pinned in plugins.lock or known to the scan cache before the other)"
    }

    /// The standing of `library` (found under `folder`): pinned when `lock` pins its bytes, known since when
    /// `cache` first knew its path.
    package static func of(_ library: String, folder: String, lock: PluginLock?, cache: PluginScanCache?)
        -> PluginStanding
    {
        let pinned =
            lock.map {
                $0.refusal(library: library, folder: folder, sha256: LibraryDigest.sha256(ofFile: library)) == nil
            }
            ?? false
        return PluginStanding(pinned: pinned, knownSince: cache?.knownSince(library))
    }

    /// `items` in the order their libraries load: the most trusted first.
    package static func ordered<Item>(_ items: [Item], by standing: (Item) -> (PluginStanding, path: String))
        -> [Item]
    {
        items.sorted { a, b in
            let (first, second) = (standing(a), standing(b))
            return first.0.precedes(second.0, path: first.path, otherPath: second.path)
        }
    }
}
