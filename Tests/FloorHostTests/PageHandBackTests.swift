import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A page decoded with `handingBack` gives each floor's bytes back to the kernel once the floor is decoded
/// (PageBytes), and says exactly what it says without: the same floors, and the same diagnostics at the same
/// lines and columns, worked out before the bytes went.
struct PageHandBackTests {
    /// A page of `floors` ProductFeed floors of `items` products each, pretty-printed (one member a line, so
    /// positions have lines and columns to get wrong), with something to say in several floors: an unknown
    /// field, a product refused, a floor of an unknown type, a duplicate id.
    static func page(floors: Int, items: Int) -> [UInt8] {
        var text = "{\n  \"floors\": [\n"
        for f in 0..<floors {
            let id = f == 5 ? "feed1" : "feed\(f)"
            let type = f == 3 ? "Nope" : "ProductFeed"
            text += "    {\n      \"type\": \"\(type)\",\n      \"id\": \"\(id)\",\n"
            if f % 2 == 0 { text += "      \"colour\": \"red\",\n" }
            text += "      \"items\": [\n"
            for i in 0..<items {
                let price = f == 4 && i == items / 2 ? "\"free\"" : "\(i).50"
                text += "        {\n          \"id\": \"p\(f)-\(i)\",\n          \"title\": \"无线蓝牙耳机 Product \(i)\",\n"
                text +=
                    "          \"price\": \(price),\n          \"img\": \"https://img.example.com/p/\(f)/\(i).jpg\"\n        }"
                text += i == items - 1 ? "\n" : ",\n"
            }
            text += "      ]\n    }" + (f == floors - 1 ? "\n" : ",\n")
        }
        return Array((text + "  ]\n}\n").utf8)
    }

    @Test func aFloorsBytesGoOnceItIsDecodedAndNothingSaidChanges() throws {
        let folder = try TemporaryFolder("handback")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let original = Self.page(floors: 8, items: 120)
        #expect(original.count > 8 * 4096 * 4, "several memory pages a floor: \(original.count) bytes")

        let kept = try PageDecoder.decode(bytes: original, file: "p.json", registry: host.registry)
        var handed = original
        // Its own storage (not shared with `original`), as a page just read has.
        handed.withUnsafeMutableBytes { _ in }
        let decoded = try PageDecoder.decode(bytes: handed, file: "p.json", registry: host.registry, handingBack: true)

        #expect(decoded.diagnostics.count >= 5, "\(decoded.diagnostics.map(\.message))")
        #expect(decoded.diagnostics.map(\.message) == kept.diagnostics.map(\.message))
        #expect(decoded.diagnostics.map(\.position) == kept.diagnostics.map(\.position))
        #expect(decoded.diagnostics.allSatisfy { $0.position != nil })
        #expect(decoded.sections.map(\.floorID) == kept.sections.map(\.floorID))
        #expect(decoded.sections.map(\.signature) == kept.sections.map(\.signature))

        // The handed-back pages read as zeros: most of the page, all but what the last floor shares a memory
        // page with and the bytes after it.
        let zeros = handed.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
        #expect(zeros > handed.count * 3 / 4, "\(zeros) of \(handed.count) bytes handed back")
        #expect(original.allSatisfy { $0 != 0 }, "the caller's other copy is untouched")
    }

    @Test func aCounterGivesWhatOneShotPositioningGives() {
        let text = "\u{FEFF}{\n  \"a\": \"é\",\n\n  \"b\": [1,\n 2]}\n"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            let offsets = Array(0...bytes.count)
            let all = SourcePosition.of(offsets, in: raw)
            var counter = SourcePosition.Counter(raw)
            for offset in offsets {
                #expect(counter.position(of: offset, in: raw) == all[offset], "offset \(offset)")
            }
            #expect(counter.position(of: 4, in: raw) == nil, "an offset behind the counter has no position")
            var fresh = SourcePosition.Counter(raw)
            let insideMark = fresh.position(of: 1, in: raw)
            #expect(insideMark != nil && insideMark == all[1], "inside the byte order mark")
        }
    }
}
