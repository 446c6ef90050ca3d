import FloorRuntime
import Foundation
import Testing

/// The scan cache's file is read without Foundation's JSONDecoder (PluginScanCache.entries(in:)): what a run
/// saved, the next reads back whole, and a file of another version or shape counts as empty, as before.
struct PluginScanCacheFileTests {
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
        #expect(read("not json") == nil)
        #expect(read("") == nil)
    }
}
