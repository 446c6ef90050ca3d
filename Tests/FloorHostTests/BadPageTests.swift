import FloorSession
import Foundation
import Testing

/// A bad page never crashes the host: unusable input exits 2 with file:line:column, a bad floor becomes a
/// placeholder and a diagnostic while the rest of the page renders (exit 0).
struct BadPageTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder()
        plugins = try folder.installShippedPlugins()
    }

    private func render(_ page: String, _ extra: [String] = []) throws -> ProcessResult {
        try floorhost(["--plugins", plugins, page] + extra)
    }

    @Test func malformedJSONExits2WithLineAndColumn() throws {
        let page = try folder.write(
            "bad.json", "{\n  \"floors\": [\n    {\"type\": \"Title\", \"title\": \"x\",}\n  ]\n}\n")
        for format in ["text", "json"] {
            let result = try render(page, ["--format", format])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.hasPrefix(
                    "error: \(page):3:36: trailing comma before '}': JSON allows no ',' after the last member; delete that ','"
                ), "\(result.stderr)")
        }
    }

    @Test func truncatedFileExits2() throws {
        let page = try folder.write("cut.json", #"{"floors":[{"type":"Title","title":"x"}"#)
        let result = try render(page)
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(page):1:"))
    }

    @Test func pageShapeErrorsExit2() throws {
        for (json, fragment) in [
            (#"{"floors":"none"}"#, "floors"), (#"[1,2]"#, "object"), (#"{"title":"no floors"}"#, "floors"),
            (#"{"floors":[],"next":5}"#, "next"),
        ] {
            let page = try folder.write("shape.json", json)
            let result = try render(page)
            #expect(result.status == 2, "\(json)")
            #expect(result.stderr.hasPrefix("error: \(page):1:"), "\(json): \(result.stderr)")
            #expect(result.stderr.contains(fragment), "\(json): \(result.stderr)")
        }
    }

    @Test func missingAndUnreadablePagesExit2() throws {
        let missing = try render(folder.file("nope.json"))
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: \(folder.file("nope.json")): no such page file\n")
        let directory = try render(folder.path)
        #expect(directory.status == 2)
        #expect(directory.stderr.contains(folder.path))
    }

    @Test func wrongFieldTypesInAFloorLeaveTheRestRendered() throws {
        let page = try folder.write(
            "types.json",
            """
            {"floors":[
              {"type":"Title","id":"ok","title":"Before"},
              {"type":"ProductFeed","id":"feed","items":[{"id":"p1","title":"Cup","price":"¥9","img":42},{"id":"p2","title":"Mug","price":"¥12","img":"m.jpg"}]},
              {"type":7,"id":"numbered"},
              {"type":"IconGrid","id":"grid","columns":"four","items":[]},
              {"type":"Title","id":"after","title":"After"}
            ]}
            """)
        let result = try render(page, ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.map { $0["floor"] as? String } == ["ok", "feed", "numbered", "grid", "after"])
        // The feed's bad product is left out, its good one shown (the SDK's DroppingBrokenItems).
        #expect(
            rows.map { $0["type"] as? String } == [
                "TitleBar", "ProductCard", "FloorPlaceholder", "FloorPlaceholder", "TitleBar",
            ])
        let diagnostics = try #require(output["diagnostics"] as? [[String: Any]])
        let paths = diagnostics.compactMap { $0["path"] as? String }
        #expect(paths.contains("floors[1].items[0].img"))
        #expect(paths.contains("floors[2].type") || paths.contains("floors[2]"))
        #expect(paths.contains("floors[3].columns"))
        let messages = diagnostics.compactMap { $0["message"] as? String }
        #expect(
            messages.contains {
                $0.contains("floors[1].items[0].img (floor 'feed'): expected a string, found number; item left out")
            })
    }

    @Test func unknownFloorTypeBecomesAPlaceholder() throws {
        let page = try folder.write(
            "unknown.json", #"{"floors":[{"type":"Coupon","id":"c1"},{"pattern":"Title","id":"t","title":"Shown"}]}"#)
        let text = try render(page)
        #expect(text.status == 0)
        #expect(text.stdout.contains("unknown floor type 'Coupon' (floor 'c1')"))
        #expect(text.stdout.contains("Shown"))
        #expect(
            text.stderr.contains(
                "error: \(page):1:12: floors[0] (floor 'c1'): unknown floor type 'Coupon': no loaded plugin registers it (loaded: Focus, IconGrid, ProductFeed, Title) (shown as a placeholder)"
            ))
    }

    @Test func emptyFloorsRendersNothingAndSaysSo() throws {
        let page = try folder.write("empty.json", #"{"floors":[]}"#)
        let result = try render(page, ["--format", "json"])
        #expect(result.status == 0)
        let output = try jsonObject(result.stdout)
        #expect((output["rows"] as? [Any])?.isEmpty == true)
        let messages = (output["diagnostics"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
        #expect(messages == ["\(page):1:1: floors: the page has no floors; nothing to show"])
        let text = try render(page)
        #expect(text.status == 0)
        #expect(text.stdout == "-- end of the feed: no next page\n", "no floors, only the line on next pages")
    }

    @Test func duplicateAndMissingFloorIdsAreReported() throws {
        let page = try folder.write(
            "ids.json",
            #"{"floors":[{"type":"Title","id":"x","title":"a"},{"type":"Title","id":"x","title":"b"},{"type":"Title","title":"c"}]}"#
        )
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.rowCount == 3)
        let messages = adapter.page.diagnostics.map(\.message)
        #expect(
            messages.contains { $0.contains("floors[1] (floor 'x'): duplicate floor id 'x' (first used by floors[0])") }
        )
        #expect(messages.contains { $0.contains("floors[2] (floor 'floors[2]'): has no 'id'") })
    }

    @Test func binaryGarbageIsRejectedNotCrashedOn() throws {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let page = folder.file("garbage.json")
        _ = FileManager.default.createFile(atPath: page, contents: Data(bytes))
        let result = try render(page)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(page):"))
    }
}
