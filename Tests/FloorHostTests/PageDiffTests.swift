import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Adapter.reload on two versions of a page, with the shipped plugins: which floors and rows it calls
/// inserted, deleted, moved and updated, what it measures again (the height calls), and how it treats
/// floors and items with missing or repeated ids.
struct PageDiffTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder()
        host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
    }

    /// A Title bar's height (ABI 1.5 text styles): 10 points of padding, one 22-point headline line, 10;
    /// a subtitle adds 2 and one 18-point footnote line.
    private let bar = 42.0, barWithSubtitle = 62.0

    private func title(_ id: String, _ text: String = "Title", subtitle: String? = nil) -> String {
        let sub = subtitle.map { #","subtitle":"\#($0)""# } ?? ""
        return #"{"type":"Title","id":"\#(id)","title":"\#(text)"\#(sub)}"#
    }

    private func product(_ id: String, price: String = "¥1") -> String {
        #"{"id":"\#(id)","title":"T \#(id)","price":"\#(price)","img":"i.jpg","jump":{"url":"app://p/\#(id)"}}"#
    }

    private func feed(_ id: String, _ items: [String], header: String? = nil, prices: [String: String] = [:]) -> String
    {
        let head = header.map { #","header":{"title":"\#($0)","sticky":false}"# } ?? ""
        let products = items.map { product($0, price: prices[$0] ?? "¥1") }.joined(separator: ",")
        return #"{"type":"ProductFeed","id":"\#(id)"\#(head),"items":[\#(products)]}"#
    }

    private func page(_ floors: [String]) -> String { #"{"floors":[\#(floors.joined(separator: ","))]}"# }

    /// Lays `old` out, reloads it as `new`; the diff (its item rows named from the two pages' content, as
    /// `floorhost diff` names them) and the height calls the reload made.
    private func reload(_ old: [String], _ new: [String], width: Double = 375) throws -> (
        diff: PageDiff, calls: Int, adapter: Adapter
    ) {
        let adapter = try host.layout(page: try folder.write("old.json", page(old)), width: width)
        let before = adapter.stats.heightCalls
        let next = try PageDecoder.decode(file: try folder.write("new.json", page(new)), registry: host.registry)
        let diff = adapter.reload([next]).namingItems(
            old: try PageContent(bytes: Array(page(old).utf8)), new: try PageContent(bytes: Array(page(new).utf8)))
        let fresh = try host.layout(page: folder.file("new.json"), width: width)
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0) }
                == (0..<fresh.rowCount).map { fresh.describe(row: $0) },
            "the reloaded page is laid out exactly as the new page is")
        return (diff, adapter.stats.heightCalls - before, adapter)
    }

    private func summary(_ diff: PageDiff) -> [String] {
        diff.floors.map { floor in
            "\(floor.change.rawValue) \(floor.floor)"
                + floor.rows.map { " [\($0.change.rawValue) \($0.type)\($0.item.map { " " + $0 } ?? "")]" }.joined()
        }
    }

    // MARK: Floors

    @Test func anUnchangedPageChangesNothingAndMeasuresNothing() throws {
        let floors = [title("t"), feed("f", ["a", "b", "c"], header: "Feed")]
        let (diff, calls, adapter) = try reload(floors, floors)
        #expect(diff.isEmpty)
        #expect(calls == 0)
        #expect(diff.rowsKept == adapter.rowCount && diff.rowsMeasured == 0)
        #expect(adapter.stats.reloads == 1 && adapter.stats.heightsKept == adapter.rowCount)
    }

    @Test func aPageWrittenOutAgainIsNoChange() throws {
        // Re-serialized as a CMS might: other indentation, other key order, "/" escaped as "\/".
        let original = page([title("t", subtitle: "a/b"), feed("f", ["a", "b"], header: "Feed")])
        let adapter = try host.layout(page: try folder.write("old.json", original), width: 375)
        let object = try JSONSerialization.jsonObject(with: Data(original.utf8))
        let rewritten = String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]), as: UTF8.self)
        #expect(rewritten.contains("\\/") && rewritten != original, "the test rewrites the page")
        let diff = adapter.reload([
            try PageDecoder.decode(file: try folder.write("new.json", rewritten), registry: host.registry)
        ])
        #expect(diff.isEmpty && diff.rowsMeasured == 0)
    }

    @Test func anInsertedFloorIsTheOnlyThingMeasuredAndPushesTheRestDown() throws {
        let (diff, calls, _) = try reload(
            [title("t"), feed("f", ["a", "b"])],
            [title("t"), title("new", subtitle: "sub"), feed("f", ["a", "b"])])
        #expect(summary(diff) == ["inserted new"])
        #expect(calls == 1)
        let change = try #require(diff.floors.first)
        #expect(change.new?.y == bar && change.new?.height == barWithSubtitle && change.new?.path == "floors[1]")
        #expect(change.shiftBelow == barWithSubtitle)
        #expect(diff.oldHeight == bar + 216 && diff.newHeight == bar + barWithSubtitle + 216)
    }

    @Test func aDeletedFloorMeasuresNothingAndPullsTheRestUp() throws {
        let (diff, calls, _) = try reload(
            [title("t"), title("gone", subtitle: "s"), feed("f", ["a"])], [title("t"), feed("f", ["a"])])
        #expect(summary(diff) == ["deleted gone"])
        #expect(calls == 0)
        #expect(diff.floors[0].old?.path == "floors[1]" && diff.floors[0].old?.y == bar)
        #expect(diff.floors[0].shiftBelow == -barWithSubtitle)
    }

    @Test func aMovedFloorIsOneMoveAndKeepsItsHeights() throws {
        let (diff, calls, _) = try reload(
            [title("a"), title("b"), title("c"), feed("f", ["p"])],
            [title("b"), title("c"), feed("f", ["p"]), title("a")])
        #expect(summary(diff) == ["moved a"])
        #expect(calls == 0)
        #expect(diff.floors[0].old?.path == "floors[0]" && diff.floors[0].new?.path == "floors[3]")
        let moved = try #require(diff.floors.first?.new)
        #expect(moved.y == 2 * bar + 108, "below b, c and the feed")
        #expect(diff.floors[0].shiftBelowOldPlace == -bar, "what followed it moves up by its height")
        #expect(diff.floors[0].shiftBelow == 0, "nothing is below its new place")
    }

    @Test func anUpdatedFloorMeasuresOnlyItsChangedRows() throws {
        let (diff, calls, _) = try reload(
            [title("t", "Old"), feed("f", ["a"])],
            [title("t", "New", subtitle: "now with a subtitle"), feed("f", ["a"])])
        #expect(summary(diff) == ["updated t [updated TitleBar]"])
        #expect(calls == 1)
        #expect(diff.floors[0].rows[0].old?.height == bar && diff.floors[0].rows[0].new?.height == barWithSubtitle)
        #expect(diff.floors[0].shiftBelow == barWithSubtitle - bar)
    }

    @Test func aFloorWhoseTypeChangedIsDeletedAndInserted() throws {
        let (diff, calls, _) = try reload([title("x")], [feed("x", ["a"])])
        #expect(summary(diff) == ["deleted x", "inserted x"])
        #expect(calls == 1)
    }

    // MARK: Items

    @Test func itemsInsertedDeletedMovedAndUpdatedAreRowsAndOnlyNewOrChangedOnesAreMeasured() throws {
        let (diff, calls, _) = try reload(
            [feed("f", ["a", "b", "c", "d", "e"], header: "Feed")],
            [feed("f", ["b", "c", "x", "d", "a", "e"], header: "Feed", prices: ["d": "¥9.90"])])
        // 'a' moved to the end, 'x' is new, 'd' changed its price: two rows measured (x and d), no more.
        #expect(summary(diff) == ["updated f [inserted ProductCard x] [updated ProductCard d] [moved ProductCard a]"])
        #expect(calls == 2)
        #expect(diff.rowsMeasured == 2)
        let deleted = try reload([feed("f", ["a", "b", "c"])], [feed("f", ["a", "c"])])
        #expect(summary(deleted.diff) == ["updated f [deleted ProductCard b]"])
        #expect(deleted.calls == 0)
        #expect(deleted.diff.floors[0].rows[0].shiftBelow == -108)
    }

    @Test func aHeaderEditMeasuresTheHeaderNotTheItems() throws {
        let (diff, calls, _) = try reload(
            [feed("f", Array("abcdefgh").map(String.init), header: "Old")],
            [feed("f", Array("abcdefgh").map(String.init), header: "New")])
        #expect(summary(diff) == ["updated f [updated ProductFeedHeader]"])
        #expect(calls == 1)
    }

    @Test func aFloorWithoutItemRowsIsMeasuredWholeWhenAnItemChanges() throws {
        // An icon grid's line shows several icons: the host cannot tell which line an icon is on, so the
        // lines of a changed grid are all measured again (two here).
        func grid(_ titles: [String]) -> String {
            let icons = titles.enumerated().map { #"{"id":"i\#($0.offset)","img":"x.png","title":"\#($0.element)"}"# }
            return #"{"type":"IconGrid","id":"g","columns":2,"items":[\#(icons.joined(separator: ","))]}"#
        }
        let (diff, calls, _) = try reload([grid(["a", "b", "c"])], [grid(["a", "B", "c"])])
        #expect(summary(diff) == ["updated g [updated IconGridLine] [updated IconGridLine]"])
        #expect(calls == 2)
    }

    @Test func heightsAreKeptAtEveryWidthTheRowsWereMeasuredAt() throws {
        let adapter = try host.layout(
            page: try folder.write("old.json", page([title("t"), feed("f", ["a", "b", "c"])])), width: 375)
        adapter.setWidth(320)
        adapter.setWidth(375)
        let before = adapter.stats.heightCalls
        adapter.reload([
            try PageDecoder.decode(
                file: try folder.write("new.json", page([title("t", subtitle: "s"), feed("f", ["a", "b", "c"])])),
                registry: host.registry)
        ])
        #expect(adapter.stats.heightCalls == before + 1)
        adapter.setWidth(320)
        #expect(adapter.stats.heightCalls == before + 2, "at 320 too, only the changed title is measured")
        let fresh = try host.layout(page: folder.file("new.json"), width: 320)
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0) }
                == (0..<fresh.rowCount).map { fresh.describe(row: $0) })
    }

    @Test func floorsUnchangedSinceThePageOnScreenKeepTheirModelsAndAreNotExpandedAgain() throws {
        let floors = [
            title("a"), feed("f", ["p", "q"], header: "Feed"), title("b"), #"{"type":"Title","title":"no id"}"#,
        ]
        let adapter = try host.layout(page: try folder.write("old.json", page(floors)), width: 375)
        var edited = floors
        edited[2] = title("b", "Edited")
        let stats = adapter.stats
        let next = try PageDecoder.decode(
            file: folder.file("new.json"), root: PageRoot(around: try folder.write("new.json", page(edited))),
            registry: host.registry, reusing: ReusableFloors(adapter))
        #expect(next.reusedRows.keys.sorted() == [0, 1, 3], "every floor but the edited one is taken over")
        let diff = adapter.reload([next])
        #expect(adapter.stats.expands == stats.expands + 1, "only the edited floor is expanded")
        #expect(adapter.stats.heightCalls == stats.heightCalls + 1)
        #expect(diff.floors.map(\.floor) == ["b"])
        let fresh = try host.layout(page: folder.file("new.json"), width: 375)
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0) }
                == (0..<fresh.rowCount).map { fresh.describe(row: $0) })
        // The kept models still work: their cells draw and their actions answer.
        guard case .success(let action) = adapter.tap(section: 1, row: 1) else {
            Issue.record("no action")
            return
        }
        #expect(action.url == "app://p/p")
    }

    // MARK: Identity

    @Test func aFloorWithoutAnIdIsTheSameFloorOnlyWhileUnchanged() throws {
        let anonymous = #"{"type":"Title","title":"No id"}"#
        let edited = #"{"type":"Title","title":"No id, edited"}"#
        let moved = try reload([anonymous, title("t"), title("u")], [title("t"), title("u"), anonymous])
        #expect(summary(moved.diff) == ["moved floors[2]"], "unchanged, it is found where it went (its id is its path)")
        #expect(moved.calls == 0)
        let changed = try reload([anonymous, title("t")], [edited, title("t")])
        #expect(summary(changed.diff) == ["deleted floors[0]", "inserted floors[0]"])
        #expect(changed.calls == 1)
    }

    @Test func repeatedFloorIdsPairOnlyThroughANeighbour() throws {
        // Two floors 'dup' (the decoder warns): neither is an anchor, but the unique 't' before them leads
        // to both, so editing the second measures only its row.
        let paired = try reload(
            [title("t"), title("dup", "One"), title("dup", "Two")],
            [title("t"), title("dup", "One"), title("dup", "Two", subtitle: "s")])
        #expect(summary(paired.diff) == ["updated dup [updated TitleBar]"])
        #expect(paired.calls == 1)
        // With nothing unique around them they cannot be told apart: both are deleted and inserted again.
        let lost = try reload(
            [title("dup", "One"), title("dup", "Two")], [title("dup", "One"), title("dup", "Two", subtitle: "s")])
        #expect(summary(lost.diff) == ["deleted dup", "deleted dup", "inserted dup", "inserted dup"])
        #expect(lost.calls == 2)
    }

    @Test func repeatedItemIdsFollowTheSameRules() throws {
        // A feed may repeat an item id within one page (only a next page's repeats are dropped): 'a' twice
        // is no anchor, and here no unique neighbour leads to the two, so both are measured again.
        let (diff, calls, _) = try reload([feed("f", ["a", "a", "b"])], [feed("f", ["b", "a", "a"])])
        #expect(
            summary(diff) == [
                "updated f [deleted ProductCard a] [deleted ProductCard a] [inserted ProductCard a] [inserted ProductCard a]"
            ])
        #expect(calls == 2)
        // Next to an anchor they pair, in order.
        let kept = try reload([feed("f", ["b", "a", "a"])], [feed("f", ["b", "a", "a", "c"])])
        #expect(summary(kept.diff) == ["updated f [inserted ProductCard c]"])
        #expect(kept.calls == 1)
    }

    /// The signatures know an item by its id's hash (FloorSignature). Two different ids whose hashes
    /// collided would pair as one item, changed: here the reload pairs 'a' with itself, price changed, and
    /// the content read for the names says the item at that place is 'z' on the new page, as it would be
    /// after a collision. The ids' text tells them apart: 'a' deleted and 'z' inserted, not 'a' updated.
    @Test func twoItemsWhoseIdHashesCollideAreStillToldApart() throws {
        let old = [feed("f", ["a", "b"])]
        let (diff, calls, _) = try reload(old, [feed("f", ["a", "b"], prices: ["a": "¥2"])])
        #expect(summary(diff) == ["updated f [updated ProductCard a]"])
        #expect(calls == 1)
        let collided = try PageContent(bytes: Array(page([feed("f", ["z", "b"], prices: ["z": "¥2"])]).utf8))
        let named = diff.namingItems(old: try PageContent(bytes: Array(page(old).utf8)), new: collided)
        #expect(summary(named) == ["updated f [deleted ProductCard a] [inserted ProductCard z]"])
        let rows = named.floors[0].rows
        #expect(rows[0].old == diff.floors[0].rows[0].old && rows[0].new == nil)
        #expect(rows[1].new == diff.floors[0].rows[0].new && rows[1].old == nil)
    }
}
