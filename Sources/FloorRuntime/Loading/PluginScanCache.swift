import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What earlier runs learned by scanning plugin libraries in a child process, kept in a JSON file and
/// keyed, as GStreamer's registry is, by the library's path, size and modification time, and by the
/// SHA-256 of its bytes (build systems and packagers set fixed times, so a rewritten library can keep
/// both size and time): a library that
/// crashed or hung while being scanned is skipped without being opened again, and scanned afresh as soon
/// as the file changes. A library known to be safe loads without a child.
///
/// Reading every library's bytes for its SHA-256 cost each run 6 ms of CPU for the four shipped plugins (8
/// MB), more with every plugin added. So a key also keeps the file's `Stable` identity, its device, inode and
/// inode change time (ctime, which no program can set: a rewrite or a rename changes it, whatever times a
/// packager sets), and a file whose identity is unchanged is the same file, without reading it. Change
/// times are as coarse as the kernel's clock tick, so an identity taken less than a second after its ctime
/// is not kept (a write within that tick would not change it), as git treats a "racily clean" file: its
/// bytes are compared, once, and the identity kept then.
///
/// The file is rewritten whole (to a temporary file, then renamed), so concurrent runs never see half a
/// file; when two runs save at once the last one wins and the other's findings are scanned again later.
/// Entries for files that no longer exist are dropped on save. Threading: one thread at a time.
public final class PluginScanCache {
    /// The identity of a library file's contents, as far as the file system tells cheaply.
    public struct Key: Codable, Equatable, Sendable {
        public let path: String
        public let size: Int64
        /// Modification time, nanoseconds since 1970.
        public let modified: Int64
        /// The bytes' SHA-256 (LibraryDigest).
        public let sha256: String
        /// The file as it stood when its bytes were last compared, if it had stood a second (see above).
        public var stable: Stable? = nil
    }

    /// A file's identity as stat tells it: the same values mean the same bytes.
    public struct Stable: Codable, Equatable, Sendable {
        public let device: UInt64
        public let inode: UInt64
        /// Inode change time, nanoseconds since 1970.
        public let changed: Int64
    }

    /// A library file as stat tells it now, without its bytes.
    struct FileStatus {
        let path: String
        let size: Int64
        let modified: Int64
        let identity: Stable

        init?(_ path: String) {
            self.path = URL(fileURLWithPath: path).standardizedFileURL.path
            var info = stat()
            guard stat(self.path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            identity = Stable(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
        }

        /// The identity to keep at `now`: none when the file changed less than a second before.
        func stable(at now: Date) -> Stable? {
            Int64(now.timeIntervalSince1970 * 1e9) - identity.changed >= 1_000_000_000 ? identity : nil
        }
    }

    public enum Verdict: String, Codable, Sendable {
        /// Loaded and drew its samples without crashing or hanging.
        case safe
        case crashed
        case hung
    }

    public struct Entry: Codable, Equatable, Sendable {
        public internal(set) var key: Key
        public let verdict: Verdict
        /// For crashed and hung: what happened and where ("crashed with SIGABRT in init").
        public let reason: String?
        /// When the scan ran, seconds since 1970.
        public let scanned: Double
        /// When the cache first knew a library at this path, seconds since 1970 (kept when the file changes
        /// and is scanned again): which of two plugins registering one floor type keeps it (PluginStanding).
        /// Nil in a file written before it was kept: then `scanned`.
        public var known: Double? = nil
    }

    /// Where the cache lives unless told otherwise: $FLOORKIT_PLUGIN_CACHE, else
    /// $XDG_CACHE_HOME/floorkit/plugin-scan.json, else ~/.cache/floorkit/plugin-scan.json.
    public static var defaultFile: String {
        if let file = ProcessEnvironment.value("FLOORKIT_PLUGIN_CACHE"), !file.isEmpty { return file }
        let base =
            ProcessEnvironment.value("XDG_CACHE_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? PathText.appending(".cache", to: PathText.homeDirectory)
        return PathText.appending("floorkit/plugin-scan.json", to: base)
    }

    /// The cache file; nil keeps findings for this process only.
    public let file: String?
    private var entries: [String: Entry] = [:]
    private var changed = false
    private let clock: () -> Date
    /// Libraries whose bytes this cache read for their SHA-256 (the rest were known by their identity).
    public private(set) var digests = 0

    /// Reads `file` if it exists. An unreadable or malformed file counts as empty (it is a cache): every
    /// library is scanned again and the file rewritten.
    public init(file: String?, clock: @escaping () -> Date = Date.init) {
        self.file = file
        self.clock = clock
        guard let file, let data = FileManager.default.contents(atPath: file), let stored = Self.entries(in: data)
        else { return }
        for entry in stored { entries[entry.key.path] = entry }
    }

    /// The entries of a cache file of the current version, or nil when `data` is not one. Read with the
    /// host's small JSON model (SchemaValue) rather than Foundation's JSONDecoder, whose first use in a
    /// process cost 13 M instructions of every render's start (BENCHMARKS.md, issue 23).
    package static func entries(in data: Data) -> [Entry]? {
        guard let root = try? SchemaValue.parse(String(decoding: data, as: UTF8.self), maxDepth: 8),
            case .number(_, let version)? = root["version"], Int(version) == Stored.currentVersion,
            case .array(let libraries)? = root["libraries"]
        else { return nil }
        var entries: [Entry] = []
        for library in libraries {
            guard case .object = library, let key = library["key"],
                case .string(let path)? = key["path"], case .number(_, let size)? = key["size"],
                let size = Int64(size), case .number(_, let modified)? = key["modified"],
                let modified = Int64(modified), case .string(let sha256)? = key["sha256"],
                let stable = Self.stable(key["stable"]),
                case .string(let verdict)? = library["verdict"], let verdict = Verdict(rawValue: verdict),
                case .number(let scanned, _)? = library["scanned"]
            else { return nil }
            let reason: String?
            switch library["reason"] {
            case .string(let text)?: reason = text
            case nil, .null?: reason = nil
            default: return nil
            }
            let known: Double?
            switch library["known"] {
            case .number(let value, _)?: known = value
            case nil, .null?: known = nil
            default: return nil
            }
            entries.append(
                Entry(
                    key: Key(path: path, size: size, modified: modified, sha256: sha256, stable: stable),
                    verdict: verdict,
                    reason: reason, scanned: scanned, known: known))
        }
        return entries
    }

    /// A key's `stable` as stored: .some(nil) when absent or null, nil when malformed.
    private static func stable(_ value: SchemaValue?) -> Stable?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .object?:
            guard case .number(_, let device)? = value?["device"], let device = UInt64(device),
                case .number(_, let inode)? = value?["inode"], let inode = UInt64(inode),
                case .number(_, let changed)? = value?["changed"], let changed = Int64(changed)
            else { return nil }
            return Stable(device: device, inode: inode, changed: changed)
        default: return nil
        }
    }

    /// The key for the library at `path` as it is now (its bytes read), or nil when it cannot be stat'ed or read.
    private func key(for path: String) -> Key? {
        guard let status = FileStatus(path), let digest = digest(status.path) else { return nil }
        return Key(
            path: status.path, size: status.size, modified: status.modified, sha256: digest,
            stable: status.stable(at: clock()))
    }

    private func digest(_ path: String) -> String? {
        digests += 1
        return LibraryDigest.sha256(ofFile: path)
    }

    /// What is known about the library at `path`, if the file is unchanged since it was scanned: the same
    /// size and time, and either the same identity or the same bytes (whose identity is then kept).
    public func entry(for path: String) -> Entry? {
        guard let status = FileStatus(path), var entry = entries[status.path], entry.key.size == status.size,
            entry.key.modified == status.modified
        else { return nil }
        if let stable = entry.key.stable, stable == status.identity { return entry }
        guard digest(status.path) == entry.key.sha256 else { return nil }
        if let stable = status.stable(at: clock()) {
            entry.key.stable = stable
            entries[status.path] = entry
            changed = true
        }
        return entry
    }

    /// When the cache first knew a library at `path`, whatever the file holds now; nil when it never did.
    public func knownSince(_ path: String) -> Double? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return entries[absolute].map { $0.known ?? $0.scanned }
    }

    public func record(_ verdict: Verdict, reason: String? = nil, for path: String) {
        guard let key = key(for: path) else { return }
        let now = clock().timeIntervalSince1970
        entries[key.path] = Entry(
            key: key, verdict: verdict, reason: reason, scanned: now, known: knownSince(key.path) ?? now)
        changed = true
    }

    /// Writes the cache file if anything was recorded. Throws a message naming the file.
    public func save() throws(PluginDiscovery.Failure) {
        guard changed, let file else { return }
        let live = entries.values.filter { FileManager.default.fileExists(atPath: $0.key.path) }.sorted {
            $0.key.path < $1.key.path
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(Stored(version: Stored.currentVersion, libraries: live))
            let folder = PathText.deletingLastComponent(of: file)
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
            changed = false
        } catch {
            throw PluginDiscovery.Failure(
                message:
                    "\(file): cannot write the plugin scan cache: \(ErrorReason.of(error)); pass --plugin-cache with a writable file"
            )
        }
    }

    struct Stored: Codable {
        /// 2: keys carry the SHA-256 (and, since, an optional `stable`); a version 1 file counts as empty
        /// (every library is scanned again).
        static let currentVersion = 2
        let version: Int
        let libraries: [Entry]
    }
}
