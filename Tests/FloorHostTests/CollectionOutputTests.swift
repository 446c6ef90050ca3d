import FloorLayout
import FloorRender
import FloorSession
import Foundation
import Testing

/// A ProductFeed laid out as a two-column waterfall (ABI 1.5, docs/ABI.md "Collections") in every output,
/// with the shipped plugin: ProductFeed's layouts are 8 points of inset and gaps, so at 375 points a column
/// is (375 - 16 - 8) / 2 = 175.5 wide, at x 8 and 8 + 175.5 + 8 = 191.5.
struct CollectionOutputTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("collection-outputs")
        plugins = try folder.installShippedPlugins()
    }

    /// A feed of `titles`, one product each.
    func feed(
        _ titles: [String], _ fields: String = #","layout":"waterfall","columns":2"#, file: String = "feed.json"
    ) throws -> String {
        let items = titles.enumerated().map { i, title in
            #"{"id":"p\#(i)","title":"\#(title)","price":"¥\#(i + 1).00","img":"p\#(i).jpg","jump":{"url":"app://p/\#(i)"}}"#
        }
        return try folder.write(
            file,
            #"{"floors":[{"type":"ProductFeed","id":"feed","header":{"title":"For you"}\#(fields),"items":[\#(items.joined(separator: ","))]}]}"#
        )
    }

    static let titles = [
        "Short one", "A title long enough to need a second line", "Third", "Fourth",
    ]

    func rows(_ page: String, _ extra: [String] = []) throws -> [[String: Any]] {
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try jsonObject(result.stdout)["rows"] as? [[String: Any]])
    }

    @Test func jsonRowsOfACollectionCarryTheirFrames() throws {
        let rows = try rows(try feed(Self.titles))
        let cards = rows.filter { $0["type"] as? String == "ProductCard" }
        #expect(cards.map { number($0["x"]) } == [8, 191.5, 8, 191.5])
        #expect(cards.allSatisfy { number($0["width"]) == 175.5 })
        #expect(cards.map { $0["column"] as? Int } == [0, 1, 0, 1])
        // A stacked card: picture 96, 6, the title (20 a body line), 6, the price (a 22-point headline), 6. Two
        // lines make it 20 taller.
        let heights = cards.compactMap { number($0["height"]) }
        #expect(heights == [156, 176, 156, 156])
        // Header 42 high (a headline line); lines 8 apart. Card 0 at 42 (col 0, next 42 + 156 + 8 = 206), card 1
        // at 42 (col 1, next 226), card 2 at 206 in column 0 (the shorter), card 3 at 226 in column 1.
        #expect(cards.compactMap { number($0["y"]) } == [42, 42, 206, 226])
        let header = try #require(rows.first { $0["type"] as? String == "ProductFeedHeader" })
        #expect(number(header["x"]) == 0 && number(header["width"]) == 375)
        #expect(header["column"] is NSNull, "a full-width row of a collection floor has no column")
    }

    @Test func aListFeedIsAsBefore() throws {
        let rows = try rows(try feed(Self.titles, ""))
        let cards = rows.filter { $0["type"] as? String == "ProductCard" }
        #expect(cards.allSatisfy { $0["x"] == nil && $0["column"] == nil }, "a list floor's rows are as in 1.4")
        // A list card is 108 points, 128 with a two-line title (the second).
        #expect(cards.compactMap { number($0["y"]) } == [42, 150, 278, 386], "under a 42-point header")
    }

    @Test func theTextPreviewDrawsTheColumnsSideBySide() throws {
        let result = try floorhost(["--plugins", plugins, try feed(Self.titles)])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let both = try #require(lines.first { $0.contains("Short one") })
        #expect(both.contains("A title long enough"), "the first two cards' titles share a line:\n\(result.stdout)")
        // Column 0 starts at 8 / 5 = column 2 (rounded), column 1 at 191.5 / 5 = 38.
        #expect(both.firstRange(of: "Short one").map { both.distance(from: both.startIndex, to: $0.lowerBound) } == 3)
    }

    @Test func htmlPlacesEachItemAtItsFrame() throws {
        let result = try floorhost(["--plugins", plugins, try feed(Self.titles), "--format", "html"])
        let items = result.stdout.split(separator: "\n").filter { $0.contains("class=\"row item\"") }
        #expect(items.count == 4)
        #expect(items[1].contains("data-column=\"1\"") && items[1].contains("left:191.5px;width:175.5px"))
    }

    @Test func diffNamesTheItemThatChangedAndItsColumn() throws {
        let before = try feed(Self.titles)
        let after = try feed(
            Self.titles.enumerated().map {
                $0.offset == 2 ? "A third title now long enough for two lines" : $0.element
            },
            file: "after.json")
        let result = try floorhost(["diff", "--plugins", plugins, before, after])
        #expect(
            result.stdout.contains(
                "updated       row 3 ProductCard (item 'p2') at y 206 in column 0: 156 → 176 points (+20); nothing below moves"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                #"floor 'feed' (ProductFeed): item 'p2' title: "Third" → "A third title now long enough for two lines""#
            ),
            "\(result.stdout)")
        #expect(result.stdout.contains("rows: 4 kept their heights, 1 measured again"), "\(result.stdout)")
    }

    @Test(arguments: [
        (
            #","layout":"masonry""#, "floors[0].layout",
            "unknown layout 'masonry' (expected list, grid or waterfall); shown as a list"
        ),
        (
            #","layout":"grid","columns":9"#, "floors[0].columns",
            "must be a whole number from 1 to 6, found 9; 6 is used"
        ),
        (
            #","layout":"grid","columns":0"#, "floors[0].columns",
            "must be a whole number from 1 to 6, found 0; 1 is used"
        ),
        (
            #","layout":true"#, "floors[0].layout",
            "must be \"list\", \"grid\" or \"waterfall\", found boolean; shown as a list"
        ),
    ])
    func badLayoutInputShowsTheFloorAndSaysWhatWasDone(fields: String, path: String, message: String) throws {
        let result = try floorhost(["--plugins", plugins, try feed(Self.titles, fields), "--format", "json"])
        #expect(result.status == 0)
        let object = try jsonObject(result.stdout)
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["type"] as? String == "ProductCard" }.count == 4, "the floor still shows")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        let found = diagnostics.first { ($0["message"] as? String)?.contains(path) == true }
        #expect(found?["level"] as? String == "error")
        #expect((found?["message"] as? String)?.contains(message) == true, "\(diagnostics)")
    }
}
