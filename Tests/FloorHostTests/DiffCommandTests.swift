import Foundation
import Testing

/// `floorhost diff` as a CMS editor runs it: on a copy of Examples/home.json with a floor moved, a price
/// changed and an item deleted; its text and json, and its exit status (0 same, 1 differs, 2 unusable).
struct DiffCommandTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder()
        plugins = try folder.installShippedPlugins()
    }

    /// home.json with the title floor 'hot' moved to the end, the price of product p1 changed and the
    /// icon 'c2' deleted.
    private func editedHome() throws -> (old: String, new: String) {
        let text = try String(contentsOfFile: Repo.path("Examples/home.json"), encoding: .utf8)
        var page = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var floors = try #require(page["floors"] as? [[String: Any]])
        let hot = try #require(floors.firstIndex { $0["type"] as? String == "Title" })
        floors.append(floors.remove(at: hot))
        for f in floors.indices {
            guard var items = floors[f]["items"] as? [[String: Any]] else { continue }
            for i in items.indices where items[i]["id"] as? String == "p1" { items[i]["price"] = "¥1.00" }
            items.removeAll { $0["id"] as? String == "c2" }
            floors[f]["items"] = items
        }
        page["floors"] = floors
        page["next"] = NSNull()
        let old = try folder.write(
            "home.json", text.replacingOccurrences(of: #""next": "home-2.json""#, with: #""next": null"#))
        let new = try folder.write(
            "home-edited.json",
            String(decoding: try JSONSerialization.data(withJSONObject: page, options: [.prettyPrinted]), as: UTF8.self)
        )
        return (old, new)
    }

    @Test func anEditedPageSaysWhatChangedAndExitsOne() throws {
        let (old, new) = try editedHome()
        let result = try floorhost(["diff", "--plugins", plugins, old, new])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("floors changed; the page is") == true, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("  moved") && $0.contains("floor 'flash-title' (Title): floors[2] → floors[10]")
                    && $0.hasSuffix("what followed it moves up 74, what is below its new place down 74")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.contains("updated") && $0.contains("ProductCard (item 'p1')")
                    && $0.contains("108 points, as before; nothing below moves")
            }, "\(lines)")
        #expect(lines.last?.hasPrefix("rows: ") == true)
    }

    @Test func jsonListsTheChangesAndTheHeightCallsOfTheRowsMeasured() throws {
        let (old, new) = try editedHome()
        let result = try floorhost(["diff", "--plugins", plugins, old, new, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let json = try jsonObject(result.stdout)
        #expect(json["same"] as? Bool == false)
        let floors = try #require(json["floors"] as? [[String: Any]])
        #expect(floors.contains { $0["change"] as? String == "moved" && $0["type"] as? String == "Title" })
        let rows = try #require(json["rows"] as? [String: Any])
        let stats = try #require(json["stats"] as? [String: Any])
        #expect(number(stats["heightCalls"]) == number(rows["measured"]))
        #expect(
            number(rows["measured"]).map { $0 > 0 && $0 <= 4 } == true,
            "the price's card and the icon lines, not the page: \(rows)")
    }

    @Test func theSamePageExitsZeroAndAnUnusableOneTwo() throws {
        let (old, _) = try editedHome()
        let copy = try folder.write("copy.json", try String(contentsOfFile: old, encoding: .utf8))
        let same = try floorhost(["diff", "--plugins", plugins, old, copy])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("no change on screen"))
        let broken = try folder.write("broken.json", #"{"floors":[}"#)
        let bad = try floorhost(["diff", "--plugins", plugins, old, broken])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("broken.json:1:"), "\(bad.stderr)")
        let missing = try floorhost(["diff", "--plugins", plugins, old, folder.file("nope.json")])
        #expect(missing.status == 2)
        let noPlugins = try floorhost(["diff", "--plugins", folder.file("no-such-folder"), old, copy])
        #expect(noPlugins.status == 2, "1 would read as 'the pages differ'")
    }
}
