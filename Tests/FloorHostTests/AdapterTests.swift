import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Sticky headers, actions, validation and the height cache, on pages written here.
struct AdapterTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder()
        host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
    }

    private func feed(_ id: String, sticky: Bool, count: Int, from first: Int = 0) -> String {
        let items = (first..<(first + count)).map {
            #"{"id":"\#(id)\#($0)","title":"T\#($0)","price":"¥1","img":"i.jpg","jump":{"url":"app://p/\#($0)","eventId":"e"}}"#
        }
        return
            #"{"type":"ProductFeed","id":"\#(id)","header":{"title":"\#(id)","sticky":\#(sticky)},"items":[\#(items.joined(separator: ","))]}"#
    }

    // MARK: Sticky headers

    @Test func aStickyHeaderPinsOnceItScrollsAboveTheTopAndTheNextOnePushesItUp() throws {
        // Title (42) | A: header 42 + 5 cards (540) | B: header 42 + 20 cards. Header A at y 42, B at 624.
        let page = try folder.write(
            "sticky.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Top"},\#(feed("a", sticky: true, count: 5)),\#(feed("b", sticky: true, count: 20))]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        func pinned(at offset: Double) -> PinnedHeader? {
            adapter.pinnedHeader(in: Viewport(width: 375, height: 812, offset: offset))
        }
        let headerA = try #require(adapter.rowIndex(section: 1, row: 0))
        let headerB = try #require(adapter.rowIndex(section: 2, row: 0))
        // The Title bar and a floor's header are 42 points each: a 22-point headline line, 10 of padding each
        // side (ABI 1.5 text styles).
        #expect(adapter.describe(row: headerA).y == 42)
        #expect(adapter.describe(row: headerB).y == 624)

        #expect(pinned(at: 0) == nil)
        #expect(pinned(at: 42) == nil, "in its own place, not pinned")
        #expect(pinned(at: 43) == PinnedHeader(row: headerA, floor: "a", y: 0))
        #expect(pinned(at: 500) == PinnedHeader(row: headerA, floor: "a", y: 0))
        // B's header reaches A's bottom at 624 - 42 = 582, then pushes A up point for point.
        #expect(pinned(at: 582) == PinnedHeader(row: headerA, floor: "a", y: 0))
        #expect(pinned(at: 602) == PinnedHeader(row: headerA, floor: "a", y: -20))
        #expect(pinned(at: 623) == PinnedHeader(row: headerA, floor: "a", y: -41))
        #expect(pinned(at: 625) == PinnedHeader(row: headerB, floor: "b", y: 0))
        #expect(pinned(at: 2000) == PinnedHeader(row: headerB, floor: "b", y: 0))
    }

    @Test func aNonStickyHeaderNeverPins() throws {
        let page = try folder.write("plain.json", #"{"floors":[\#(feed("a", sticky: false, count: 20))]}"#)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.pinnedHeader(in: Viewport(width: 375, height: 812, offset: 500)) == nil)
    }

    @Test func theTextScreenDrawsThePinnedHeaderOnTop() throws {
        let page = try folder.write("sticky.json", #"{"floors":[\#(feed("a", sticky: true, count: 30))]}"#)
        let plugins = folder.file("plugins")
        let result = try floorhost(["--plugins", plugins, page, "--viewport", "375x240", "--scroll-to", "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count - 1 == 21, "a 240-point screen is 20 lines, then the line on next pages")
        #expect(lines[20].hasPrefix("-- screen 375x240 at y "))
        #expect(lines[0].hasPrefix("  a "), "the pinned header's title is on the screen's first line: \(lines[0])")
        #expect(lines[0].hasSuffix("pinned"), "the marker beside the title: \(lines[0])")
        let json = try jsonObject(
            try floorhost([
                "--plugins", plugins, page, "--format", "json", "--viewport", "375x240", "--scroll-to", "1000",
            ]).stdout)
        let viewport = try #require(json["viewport"] as? [String: Any])
        #expect(viewport["pinned"] as? String == "a")
        #expect(viewport["offset"] as? Int == 1000)
        #expect(viewport["visibleRows"] as? [Int] == [9, 10, 11, 12], "cards 8 to 11 span 1008..<1332")
    }

    // MARK: Actions

    @Test func tapsGiveThePluginsActions() throws {
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let icon = try adapter.tap(section: 1, row: 0, item: 2).get()
        #expect(icon.url == "app://channel/phone")
        #expect(icon.eventId == "channel_click")
        #expect(icon.params == [.init(key: "iconId", value: "c2"), .init(key: "position", value: "2")])
        #expect(
            try adapter.tap(section: 1, row: 1, item: 0).get().params.first?.value == "c5",
            "second line starts at icon 5")
        let banner = try adapter.tap(section: 0, row: 0).get()
        #expect(banner.url == "app://activity/1111" && banner.floor == "focus" && banner.type == "FocusCarousel")
        #expect(try adapter.tap(section: 3, row: 2).get().url == "app://product/2")

        #expect(
            adapter.tap(section: 2, row: 1)
                == .failure(NoAction(description: "row 2:1 (TitleBar of floor 'flash-title') is not tappable")))
        #expect(
            adapter.tap(section: 1, row: 1, item: 5)
                == .failure(
                    NoAction(
                        description:
                            "row 1:1 (IconGridLine of floor 'channels') has 5 tappable items; there is no item 5")))
        #expect(
            adapter.tap(section: 99, row: 0)
                == .failure(NoAction(description: "no row 99:0 on the page (11 sections, 0 to 10)")))
    }

    @Test func theCLIPrintsATapAsJSONAndListsTappableItems() throws {
        let plugins = folder.file("plugins")
        let tap = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--tap", "1:0:2"])
        #expect(tap.status == 0)
        #expect(
            tap.stdout
                == #"{"eventId":"channel_click","floor":"channels","item":2,"params":{"iconId":"c2","position":"2"},"row":0,"section":1,"type":"IconGridLine","url":"app:\/\/channel\/phone"}"#
                + "\n")
        let none = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--tap", "2:1"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no action: row 2:1 (TitleBar of floor 'flash-title') is not tappable"))
        let bad = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--tap", "one"])
        #expect(bad.status == 64)
        let rows = try #require(
            try jsonObject(
                try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json"]).stdout)[
                    "rows"] as? [[String: Any]])
        #expect(rows[2]["tappable"] as? Int == 5)
        #expect(rows[0]["tappable"] as? Int == 4, "the carousel's four banners, a page each")
        #expect(rows[5]["tappable"] == nil, "a title bar is not tappable")
    }

    // MARK: Validation

    /// The declarations' data checks: a product with a blank title or image is left out (the feed stays);
    /// a carousel with no banner is refused, a placeholder in its place.
    @Test func dataChecksLeaveItemsOutAndRefuseAnEmptyCarousel() throws {
        let page = try folder.write(
            "invalid.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Kept"},{"type":"ProductFeed","id":"f","items":[{"id":"a","title":" ","price":"¥1","img":"x.jpg"},{"id":"b","title":"ok","price":"¥1","img":""}]},{"type":"Focus","id":"empty","items":[]}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).floor } == ["t", "empty"])
        let found = adapter.page.diagnostics.map { "\($0.path ?? "") \($0.plugin ?? "")" }
        #expect(
            found == [
                "floors[1].items[0].title com.floorkit.floor.product-feed",
                "floors[1].items[1].img com.floorkit.floor.product-feed",
                "floors[2].items ",
            ])
        #expect(
            try #require(adapter.page.diagnostics.first).message
                == "\(page):1:103: floors[1].items[0].title (floor 'f'): is empty; item left out (plugin com.floorkit.floor.product-feed) (left out)"
        )
    }

    @Test func checkValidatesAPageAndEveryNextPage() throws {
        let plugins = folder.file("plugins")
        let good = try floorhost(["check", "--plugins", plugins, Repo.path("Examples/home.json")])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout == "ok: 3 pages checked, no problems\n")

        try folder.write(
            "c0.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[{"id":"a","title":"A","price":"¥1","img":"a.jpg"}]}],"next":"c1.json"}"#
        )
        try folder.write(
            "c1.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[{"id":"a","title":"A","price":"¥1","img":"a.jpg"}]},{"type":"Focus","id":"x","items":[]},{"type":"Nope","id":"n"}],"next":"c2.json"}"#
        )
        let bad = try floorhost(["check", "--plugins", plugins, folder.file("c0.json")])
        #expect(bad.status == 1)
        let lines = bad.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("error: ")
                    && $0.contains("c1.json: floors[0].items[0] (floor 'f'): duplicate item id 'a' dropped")
                    && $0.hasSuffix("(left out)")
            })
        #expect(
            lines.contains {
                $0.contains("c1.json:1:129: floors[1].items (floor 'x'): expected at least 1 item, found none")
                    && $0.hasSuffix("(shown as a placeholder)")
            })
        #expect(lines.contains { $0.contains("c1.json:1:141: floors[2] (floor 'n'): unknown floor type 'Nope'") })
        #expect(
            lines.contains {
                $0.contains("c1.json: next: \(folder.file("c2.json")): no such page file (the chain stops here)")
            },
            "\(lines)")
        #expect(lines.last == "4 errors in 3 pages")
    }

    // MARK: Heights

    @Test func heightsAreMeasuredOnceAndAgainOnlyForANewWidth() throws {
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        #expect(adapter.stats.heightCalls == adapter.rowCount)
        let carousel = adapter.describe(row: 0).height
        adapter.setWidth(375)
        #expect(adapter.stats.heightCalls == adapter.rowCount, "same width: nothing recomputed")
        adapter.setWidth(750)
        #expect(adapter.stats.heightCalls == 2 * adapter.rowCount)
        #expect(adapter.describe(row: 0).height == 2 * carousel, "banners keep their 5:2 shape")
        // Full-width rows are the running sum of heights (down to the feed's waterfall, placed in columns).
        var y = 0.0
        for r in 0..<adapter.rowCount where !adapter.isPlacedItem(row: r) {
            #expect(adapter.describe(row: r).y == y)
            y += adapter.describe(row: r).height
        }
    }

    @Test func goingBackToAWidthMeasuresOnlyTheRowsAddedSince() throws {
        try folder.write("w0.json", #"{"floors":[\#(feed("f", sticky: true, count: 10))],"next":"w1.json"}"#)
        try folder.write(
            "w1.json",
            #"{"floors":[\#(feed("f", sticky: true, count: 5, from: 10)),{"type":"Title","id":"more","title":"More"}]}"#
        )
        let adapter = try host.layout(page: folder.file("w0.json"), width: 375)
        let at375 = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
        adapter.setWidth(320)
        #expect(adapter.stats.heightCalls == 2 * 11)
        adapter.setWidth(375)
        #expect(adapter.stats.heightCalls == 2 * 11, "375 was measured before: nothing is measured again")
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0) } == at375)
        adapter.setWidth(320)
        #expect(adapter.stats.heightCalls == 2 * 11)
        adapter.append(try PageDecoder.decode(file: folder.file("w1.json"), registry: host.registry))
        #expect(adapter.stats.heightCalls == 2 * 11 + 5 + 1)
        adapter.setWidth(375)
        #expect(
            adapter.stats.heightCalls == 2 * 11 + 2 * (5 + 1),
            "back at 375, only the five cards and the title the next page added")
        var y = 0.0
        for r in 0..<adapter.rowCount {
            #expect(adapter.describe(row: r).y == y)
            y += adapter.describe(row: r).height
        }
        #expect(Array((0..<11).map { adapter.describe(row: $0) }) == at375)
    }

    @Test func relayoutRebuildsEveryOffsetFromTheCacheWithoutCallingAPlugin() throws {
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let before = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
        let calls = adapter.stats
        adapter.relayout()
        #expect(adapter.stats == calls, "no height calculator or cell selector called")
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0) } == before)
        #expect(adapter.totalHeight == before.last.map { $0.y + $0.height })
        #expect(before.count > 10 && before.last!.y > 0, "a page with something to lay out")
    }

    @Test func aLoadMoreMeasuresOnlyTheNewRows() throws {
        // The feed is followed by a Title floor, so the twelve new cards go in the middle of the page.
        try folder.write(
            "m0.json",
            #"{"floors":[\#(feed("f", sticky: true, count: 10)),{"type":"Title","id":"after","title":"After","margin":{"top":12,"bottom":12}}],"next":"m1.json"}"#
        )
        try folder.write(
            "m1.json",
            #"{"floors":[\#(feed("f", sticky: true, count: 12, from: 10)),{"type":"Title","id":"more","title":"More"}]}"#
        )
        let adapter = try host.layout(page: folder.file("m0.json"), width: 375)
        let before = adapter.stats.heightCalls
        #expect(before == 11 + 3)
        let after = try #require(adapter.rowIndex(section: 1, row: 1))
        let edits = adapter.append(try PageDecoder.decode(file: folder.file("m1.json"), registry: host.registry))
        #expect(adapter.stats.heightCalls == before + 12 + 1, "twelve cards and one new title, nothing else")
        #expect(edits == [Adapter.Edit(at: 11, removed: 0, added: 12), Adapter.Edit(at: 26, removed: 0, added: 1)])
        #expect(adapter.describe(row: after + 12).type == "TitleBar")
        #expect(adapter.describe(row: after + 12).y == 42 + 22 * 108 + 12)
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0).floor } == Array(repeating: "f", count: 23)
                + Array(repeating: "after", count: 3) + ["more"])
    }
}
