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
        #expect(lines.first?.contains("3 changes in the content; on screen") == true, "\(lines)")
        #expect(lines.contains("  floor 'flash-title' (Title) moved from floors[2] to floors[10]"), "\(lines)")
        #expect(lines.contains(#"  floor 'flash' (ProductFeed): item 'p1' price: 59.9 → "¥1.00""#), "\(lines)")
        #expect(lines.contains("  floor 'channels' (IconGrid): item 'c2' deleted (was items[2])"), "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("  moved") && $0.contains("floor 'flash-title' (Title): floors[2] → floors[10]")
                    && $0.contains("what followed its old place moves up 74")
            }, "\(lines)")
        #expect(lines.last?.hasPrefix("rows: ") == true)
    }

    /// The text and the json are two printers of one model: each screen line of the text says what json's
    /// `shiftBelow` (and, for a moved floor, `shiftBelowOldPlace`) say, in the same order. The text once
    /// said "nothing below moves" for p1's card where the json said the content below it moved up 74.
    @Test func textAndJSONSayTheSameShifts() throws {
        let home = try editedHome()
        let pairs = [
            home, (Repo.path("Tests/Fixtures/Diff/promo.json"), Repo.path("Tests/Fixtures/Diff/promo-edited.json")),
        ]
        for (old, new) in pairs {
            let text = try floorhost(["diff", "--plugins", plugins, old, new]).stdout
            let json = try jsonObject(
                try floorhost(["diff", "--plugins", plugins, old, new, "--format", "json"]).stdout)
            let lines = text.split(separator: "\n").map(String.init)
            let start = try #require(lines.firstIndex(of: "screen:"))
            let screen = lines[(start + 1)...].prefix { !$0.hasPrefix("rows: ") }.map { $0 }
            var expected: [(String, [String])] = []
            for floor in try #require(json["floors"] as? [[String: Any]]) {
                let change = try #require(floor["change"] as? String)
                let below = try #require(number(floor["shiftBelow"]))
                if change.hasPrefix("moved") {
                    var phrases = ["what is below its new place \(moves(below))"]
                    if let old = number(floor["shiftBelowOldPlace"]) {
                        phrases.append("what followed its old place \(moves(old))")
                    }
                    expected.append((change, phrases))
                } else {
                    expected.append((change, [shift(below)]))
                }
                for row in try #require(floor["rows"] as? [[String: Any]]) {
                    expected.append(
                        (try #require(row["change"] as? String), [shift(try #require(number(row["shiftBelow"])))]))
                }
            }
            #expect(screen.count == expected.count, "\(screen)")
            for (line, (change, phrases)) in zip(screen, expected) {
                #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix(change), "\(line)")
                for phrase in phrases { #expect(line.contains(phrase), "\(line) should say \(phrase)") }
            }
        }
    }

    private func moves(_ delta: Double) -> String {
        delta == 0 ? "stays" : "moves \(delta > 0 ? "down" : "up") \(points(abs(delta)))"
    }

    private func shift(_ delta: Double) -> String {
        delta == 0 ? "nothing below moves" : "what is below \(moves(delta))"
    }

    private func points(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

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
        #expect(same.stdout.contains("no change ("))
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
