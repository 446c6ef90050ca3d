import CFloorABI
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `plugins.lock` in a plugin folder: every library's file name (relative to the folder), plugin id,
/// version and SHA-256, written by `floorhost lock` after the libraries were reviewed. While the file
/// exists (or when the host is told the folder is locked), a library that is not in it, or whose bytes
/// hash differently, is refused (like a package manager's lock file, or GStreamer's allowlist).
public struct PluginLock: Sendable, Equatable {
    public static let fileName = "plugins.lock"

    public struct Entry: Codable, Sendable, Equatable {
        /// The library's path relative to the plugin folder ("libTitleFloor.so", "vendor/libX.so").
        public let file: String
        public let id: String
        public let version: String
        public let sha256: String
    }

    public let entries: [Entry]

    public struct Failure: Error, Sendable { public let message: String }

    /// The lock file of `folder`.
    public static func file(in folder: String) -> String {
        PathText.appending(fileName, to: folder)
    }

    /// The lock of `folder`, or nil when it has no lock file. A lock file that cannot be read or parsed
    /// throws: a lock that does not say what it pins must not let everything through.
    public static func read(folder: String) throws(Failure) -> PluginLock? {
        let path = file(in: folder)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.version == Stored.currentVersion
        else {
            throw Failure(
                message:
                    "\(path): cannot read the plugin lock file (not a version \(Stored.currentVersion) lock); run `floorhost lock --plugins \(folder)` again after reviewing the plugins"
            )
        }
        return PluginLock(entries: stored.libraries)
    }

    /// Why `library` (under `folder`, with bytes hashing to `sha256`) may not load, or nil when the lock
    /// pins exactly these bytes.
    public func refusal(library: String, folder: String, sha256: String?) -> String? {
        let lockFile = Self.file(in: folder)
        let relative = Self.relative(library, to: folder)
        let again = "review it, then run `floorhost lock --plugins \(folder)` again"
        guard let entry = entries.first(where: { $0.file == relative }) else {
            return "not in \(lockFile), which pins every library this folder may load; \(again)"
        }
        guard let sha256 else { return "cannot be read to compare it with \(lockFile)" }
        guard entry.sha256 == sha256 else {
            return
                "its SHA-256 is \(sha256.prefix(16))…, not \(entry.sha256.prefix(16))… as \(lockFile) pins for \(entry.id) \(entry.version): the file changed since it was locked; \(again)"
        }
        return nil
    }

    /// Hashes and describes every library under `folder` and writes its lock file (atomically). A library
    /// that is not a loadable floor plugin is locked with an empty id and version: the lock pins bytes.
    public static func write(folder: String) throws(Failure) -> PluginLock {
        let libraries: [String]
        do {
            libraries = try PluginDiscovery.libraries(in: folder)
        } catch {
            throw Failure(message: error.message)
        }
        var entries: [Entry] = []
        for library in libraries {
            guard let digest = LibraryDigest.sha256(ofFile: library) else {
                throw Failure(message: "\(library): cannot read it to hash it; nothing was written")
            }
            let (id, version) = describe(library)
            entries.append(Entry(file: relative(library, to: folder), id: id, version: version, sha256: digest))
        }
        let path = file(in: folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(Stored(version: Stored.currentVersion, libraries: entries))
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            // Written with the owner's rights only to change it, as the libraries it pins.
            chmod(path, 0o644)
        } catch {
            throw Failure(message: "\(path): cannot write the plugin lock file: \(ErrorReason.of(error))")
        }
        return PluginLock(entries: entries)
    }

    package static func relative(_ library: String, to folder: String) -> String {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return library.hasPrefix(base) ? String(library.dropFirst(base.count)) : PathText.lastComponent(of: library)
    }

    /// The descriptor's id and version: the library is opened (as it will be to load it) and its entry
    /// symbol called, but not its init. ("", "") when it is not a floor plugin of this ABI major.
    private static func describe(_ library: String) -> (String, String) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE),
            let symbol = dlsym(handle, FLOOR_PLUGIN_ENTRY_SYMBOL),
            let descriptor = unsafeBitCast(symbol, to: floor_plugin_entry_t.self)(),
            descriptor.pointee.abi_major == UInt32(FLOOR_ABI_MAJOR)
        else { return ("", "") }
        func field(_ value: UnsafePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        return (field(descriptor.pointee.id), field(descriptor.pointee.version))
    }

    private struct Stored: Codable {
        static let currentVersion = 1
        let version: Int
        let libraries: [Entry]
    }

    /// What `floorhost lock` prints: each library's SHA-256, file, id and version, then where the lock went.
    package func lines(folder: String) -> [String] {
        entries.map { "\($0.sha256)  \($0.file)  \($0.id.isEmpty ? "(not a floor plugin)" : "\($0.id) \($0.version)")" }
            + ["wrote \(Self.file(in: folder)): \(entries.count) librar\(entries.count == 1 ? "y" : "ies")"]
    }
}
