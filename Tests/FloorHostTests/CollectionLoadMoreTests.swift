import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Load-more on a collection floor (docs/ABI.md, "Collections"; ARCHITECTURE.md, "Load-more"): a next page's
/// items go to the columns' bottoms and nothing placed moves; "the row at count - 4" counts the items in
/// item order.
struct CollectionLoadMoreTests {
    /// The frames of the feed's cards, in item order.
    static func cards(_ adapter: Adapter) -> [RowFrame] {
        (0..<adapter.rowCount).filter { adapter.describe(row: $0).floor == "feed" && adapter.isPlacedItem(row: $0) }
            .map(adapter.frame(of:))
    }

    @Test func homesNextPagesExtendTheWaterfallWithoutMovingACard() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
            deliversLoadsImmediately: false)
        var placed = Self.cards(adapter)
        #expect(placed.count == 12)
        for page in ["home-2.json", "home-3.json"] {
            session.scroll(to: session.maxOffset)
            #expect(session.requests.last.map { $0.hasSuffix(page) } == true)
            session.deliverLoad()
            let now = Self.cards(adapter)
            #expect(Array(now.prefix(placed.count)) == placed, "no card of an earlier page moved")
            // Each new card starts where its column ended (8 points under the column's lowest card so far).
            var bottoms = [8.0, 191.5].map { x in placed.filter { $0.x == x }.map(\.bottom).max() ?? 0 }
            for card in now.dropFirst(placed.count) {
                let column = card.x == 8 ? 0 : 1
                #expect(card.y == bottoms[column] + 8 && card.width == 175.5)
                #expect(bottoms[column] <= bottoms[1 - column], "into the shorter column")
                bottoms[column] = card.bottom
            }
            placed = now
        }
        #expect(placed.count == 12 + 12 + 10)
        #expect(session.feedProductIDs.count == 3 + 4 + 12 + 12 + 10, "flash, new arrivals and the feed's three pages")
    }

    @Test func theLoadStartsWhenTheItemAtCountMinus4IsDisplayed() throws {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so")
        let host = try FloorHost(pluginFolder: plugins)
        // 20 tiles of 100 in a 2-column grid, lines 5 apart: tiles 2k and 2k + 1 at 105k. Tile 16 (the row at
        // count - 4) is at 840, beside tile 17.
        let heights = Array(repeating: "100", count: 20).joined(separator: ",")
        let page = try folder.write(
            "grid.json",
            #"{"floors":[{"type":"Tiles","id":"g","layout":"grid","heights":[\#(heights)]}],"next":"more.json"}"#)
        try folder.write("more.json", #"{"floors":[{"type":"Tiles","id":"g","heights":[50,50]}]}"#)
        let session = PageSession(
            adapter: try host.layout(page: page, width: 375), viewportHeight: 300,
            source: PageSource(registry: host.registry), deliversLoadsImmediately: false)
        session.scroll(to: 540)
        #expect(session.requests.isEmpty, "at 540 the screen ends at tile 16's top")
        session.scroll(to: 541)
        #expect(session.requests.count == 1)
        let trigger = session.events.compactMap { event -> Int? in
            if case .loadMoreRequested(let row, _) = event { return row } else { return nil }
        }
        #expect(trigger == [17], "the last item displayed, in item order")
        session.deliverLoad()
        // Line 9 (tiles 18 and 19) ends at 945 + 100; the next page's tiles start a line below it.
        let added = (20..<22).map { session.adapter.frame(of: $0) }
        #expect(added.map(\.y) == [1050, 1050] && added.map(\.x) == [15, 192.5])
    }
}
