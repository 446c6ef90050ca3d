import Foundation

/// What earlier runs learned by scanning plugin libraries in a child process, kept in a JSON file and
/// keyed, as GStreamer's registry is, by the library's path, size and modification time, and by the
/// SHA-256 of its bytes (build systems and packagers set fixed times, so a rewritten library can keep
/// both size and time): a library that
/// crashed or hung while being scanned is skipped without being opened again, and scanned afresh as soon
/// as the file changes. A library known to be safe loads without a child.
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
    }

    public enum Verdict: String, Codable, Sendable {
        /// Loaded and drew its samples without crashing or hanging.
        case safe
        case crashed
        case hung
    }

    public struct Entry: Codable, Equatable, Sendable {
        public let key: Key
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
        let environment = ProcessInfo.processInfo.environment
        if let file = environment["FLOORKIT_PLUGIN_CACHE"], !file.isEmpty { return file }
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return (base as NSString).appendingPathComponent("floorkit/plugin-scan.json")
    }

    /// The cache file; nil keeps findings for this process only.
    public let file: String?
    private var entries: [String: Entry] = [:]
    private var changed = false

    /// Reads `file` if it exists. An unreadable or malformed file counts as empty (it is a cache): every
    /// library is scanned again and the file rewritten.
    public init(file: String?) {
        self.file = file
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
                    key: Key(path: path, size: size, modified: modified, sha256: sha256), verdict: verdict,
                    reason: reason, scanned: scanned, known: known))
        }
        return entries
    }

    /// The key for the library at `path` as it is now, or nil when it cannot be stat'ed or read.
    public static func key(for path: String) -> Key? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var info = stat()
        guard stat(absolute, &info) == 0, let digest = LibraryDigest.sha256(ofFile: absolute) else { return nil }
        return Key(
            path: absolute, size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), sha256: digest)
    }

    /// What is known about the library at `path`, if the file is unchanged since it was scanned.
    public func entry(for path: String) -> Entry? {
        guard let key = Self.key(for: path), let entry = entries[key.path], entry.key == key else { return nil }
        return entry
    }

    /// When the cache first knew a library at `path`, whatever the file holds now; nil when it never did.
    public func knownSince(_ path: String) -> Double? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return entries[absolute].map { $0.known ?? $0.scanned }
    }

    public func record(_ verdict: Verdict, reason: String? = nil, for path: String) {
        guard let key = Self.key(for: path) else { return }
        let now = Date().timeIntervalSince1970
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
            let folder = (file as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
            changed = false
        } catch {
            throw PluginDiscovery.Failure(
                message:
                    "\(file): cannot write the plugin scan cache: \(error.localizedDescription); pass --plugin-cache with a writable file"
            )
        }
    }

    struct Stored: Codable {
        /// 2: keys carry the SHA-256; a version 1 file counts as empty (every library is scanned again).
        static let currentVersion = 2
        let version: Int
        let libraries: [Entry]
    }
}
