import FloorRuntime
import Foundation
import Testing

/// The scan cache's file is read without Foundation's JSONDecoder (PluginScanCache.entries(in:)): what a run
/// saved, the next reads back whole, and a file of another version or shape counts as empty, as before. A
/// library whose identity (device, inode, change time) is as kept is known without reading its bytes.
struct PluginScanCacheFileTests {
    /// A clock `seconds` after now: a run that comes that much later.
    static func later(_ seconds: Double) -> () -> Date { { Date().addingTimeInterval(seconds) } }

    @Test func anUnchangedLibraryIsKnownWithoutReadingItsBytes() throws {
        let folder = try TemporaryFolder("scan-cache-identity")
        let library = try folder.write("lib.so", String(repeating: "x", count: 4096))
        let file = folder.file("cache.json")
        // Scanned a minute after it was written: its identity has stood, and is kept.
        let first = PluginScanCache(file: file, clock: Self.later(60))
        first.record(.safe, for: library)
        try first.save()
        #expect(first.digests == 1)
        let second = PluginScanCache(file: file, clock: Self.later(120))
        #expect(second.entry(for: library)?.verdict == .safe)
        #expect(second.digests == 0, "known by its identity, its bytes not read")
        // Replaced by a file of other bytes with the same size and time (a new inode): read, and not known.
        let other = try folder.write("other.so", String(repeating: "y", count: 4096))
        try keepTimes(of: library, on: other)
        #expect(rename(other, library) == 0)
        #expect(second.entry(for: library) == nil)
        #expect(second.digests == 1)
    }

    @Test func anIdentityTakenWithinASecondOfAChangeIsNotKept() throws {
        let folder = try TemporaryFolder("scan-cache-racy")
        let library = try folder.write("lib.so", String(repeating: "x", count: 4096))
        let file = folder.file("cache.json")
        // Scanned as it was written: a write in the same clock tick would not change its ctime.
        let first = PluginScanCache(file: file)
        first.record(.crashed, reason: "crashed with SIGSEGV in init", for: library)
        try first.save()
        #expect(first.entry(for: library)?.key.stable == nil)
        // A later run compares the bytes once and keeps the identity, which the run after trusts.
        let second = PluginScanCache(file: file, clock: Self.later(60))
        #expect(second.entry(for: library)?.verdict == .crashed)
        #expect(second.digests == 1)
        try second.save()
        let third = PluginScanCache(file: file, clock: Self.later(120))
        #expect(third.entry(for: library)?.verdict == .crashed)
        #expect(third.digests == 0)
    }

    /// Gives `path` the access and modification times of `source`.
    private func keepTimes(of source: String, on path: String) throws {
        var info = stat()
        #expect(stat(source, &info) == 0)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test func whatARunSavesTheNextReadsBack() throws {
        let folder = try TemporaryFolder("scan-cache-file")
        let libraries = try (0..<3).map { i in try folder.write("lib\(i).so", String(repeating: "x", count: i + 1)) }
        let file = folder.file("cache.json")
        let first = PluginScanCache(file: file)
        first.record(.safe, for: libraries[0])
        first.record(.crashed, reason: "crashed with SIGSEGV in init \"quoted\" \\ é", for: libraries[1])
        first.record(.hung, reason: "hung (no answer for 3 s) while decoding", for: libraries[2])
        try first.save()
        let second = PluginScanCache(file: file)
        for library in libraries {
            let saved = try #require(first.entry(for: library))
            #expect(second.entry(for: library) == saved, "\(library)")
        }
        #expect(second.knownSince(libraries[1]) == first.knownSince(libraries[1]))
    }

    @Test func aFileOfAnotherShapeIsEmpty() {
        let entry =
            #"{"key":{"path":"/p/lib.so","size":12,"modified":1795700748169432574,"sha256":"ab"},"verdict":"safe","scanned":1.5}"#
        func read(_ text: String) -> [PluginScanCache.Entry]? { PluginScanCache.entries(in: Data(text.utf8)) }
        let read2 = read(#"{"version":2,"libraries":["# + entry + "]}")
        #expect(read2?.first?.key.modified == 1_795_700_748_169_432_574, "an integer past 2^53 read exactly")
        #expect(read2?.first?.reason == nil && read2?.first?.known == nil)
        #expect(read(#"{"version":1,"libraries":["# + entry + "]}") == nil)
        #expect(read(#"{"version":2,"libraries":[{"verdict":"safe"}]}"#) == nil)
        #expect(
            read(#"{"version":2,"libraries":["# + entry.replacingOccurrences(of: "safe", with: "fine") + "]}") == nil)
        let stable = #","stable":{"device":2049,"inode":18446744073709551615,"changed":1795700748169432574}}"#
        let withStable = read(
            #"{"version":2,"libraries":["#
                + entry.replacingOccurrences(of: "}", with: stable, range: entry.range(of: "}")) + "]}")
        #expect(withStable?.first?.key.stable?.inode == UInt64.max, "\(String(describing: withStable))")
        #expect(
            read(
                #"{"version":2,"libraries":["#
                    + entry.replacingOccurrences(of: "\"sha256\":\"ab\"", with: "\"sha256\":\"ab\",\"stable\":7") + "]}"
            ) == nil,
            "a stable that is not an identity")
        #expect(read("not json") == nil)
        #expect(read("") == nil)
    }
}
