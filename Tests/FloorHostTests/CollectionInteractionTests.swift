import FloorLayout
import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import Testing

/// Items of a collection floor are cells (docs/ABI.md, "Collections"): taps, impressions with their
/// visible fraction, sticky headers and the terminal view's selection work per item. The plugin is tiles.c
/// (waterfall, 2 columns 167.5 wide at x 15 and 192.5, lines 5 apart, a 20-point sticky title).
struct CollectionInteractionTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder("collection-interaction")
        host = try tilesHost(in: folder)
    }

    func page(_ heights: [Int], _ fields: String = #","title":true"#, after: String = "") throws -> String {
        let list = heights.map(String.init).joined(separator: ",")
        return try folder.write(
            "tiles.json", #"{"floors":[{"type":"Tiles","id":"w","heights":[\#(list)]\#(fields)}\#(after)]}"#)
    }

    @Test func aTapOnAnItemIsThatItemsAction() throws {
        let adapter = try host.layout(page: try page([100, 40, 60]), width: 375)
        // Row 0 is the title; rows 1 to 3 are tiles 0 to 2 (tile 2 in column 1, under tile 1).
        #expect(try adapter.tap(section: 0, row: 3).get().url == "app://tile/2")
        #expect(adapter.column(of: 3) == 1)
        let result = try floorhost([
            "--plugins", folder.file("plugins"), folder.file("tiles.json"), "--tap", "0:2", "--format", "json",
        ])
        #expect(result.stdout.contains(#""url":"app:\/\/tile\/1""#), "\(result.stdout)")
    }

    @Test func anImpressionIsPerItemWithItsVisibleFraction() throws {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        // Title 0..<20; tile 0 (col 0) 20..<420; tile 1 (col 1) 20..<120; tile 2 (col 1) 125..<725.
        // A 300-point screen at 0 shows tile 0 for 280 of 400 points (70 %), tile 1 whole, tile 2 for 175 of 600.
        let session = PageSession(
            adapter: try host.layout(page: try page([400, 100, 600]), width: 375), viewportHeight: 300,
            source: PageSource(registry: host.registry), impressions: ImpressionRule(fraction: 0.5, milliseconds: 100),
            impressionClock: .source { clock.now })
        clock.now = 100
        session.observeImpressions()
        let seen = session.events.compactMap { event -> Impression? in
            if case .impression(let seen) = event { seen } else { nil }
        }
        #expect(seen.map(\.row) == [0, 1, 2], "the title and tiles 0 and 1; tile 2 is 29 % visible")
        #expect(seen.first { $0.row == 1 }?.fraction == 0.7)
        #expect(seen.first { $0.row == 2 }?.fraction == 1)
    }

    @Test func theStickyTitlePinsOverTheItemsUntilTheFloorEnds() throws {
        // The floor's items end at 20 + 400 = 420 (column 0), though its last row (tile 2) ends at 325.
        let adapter = try host.layout(
            page: try page([400, 100, 200], after: #",{"type":"Tiles","id":"b","layout":"list","heights":[900]}"#),
            width: 375)
        func pinned(_ offset: Double) -> PinnedHeader? {
            adapter.pinnedHeader(in: Viewport(width: 375, height: 300, offset: offset))
        }
        #expect(pinned(100) == PinnedHeader(row: 0, floor: "w", y: 0))
        #expect(pinned(390) == PinnedHeader(row: 0, floor: "w", y: 0), "tile 0 is still on screen below it")
        #expect(pinned(410) == PinnedHeader(row: 0, floor: "w", y: -10), "the floor's end pushes it up")
        #expect(pinned(420) == nil)
    }

    @Test func tabAndShiftTabMoveTheSelectionItemByItem() throws {
        let file = try page([40, 80, 40, 40])
        let viewer = try PageViewer(host: host, page: file, root: PageRoot(around: file), columns: 75, lines: 40)
        var selected: [Int] = []
        for _ in 0..<4 {
            _ = viewer.handle(.tab)
            selected.append(try #require(viewer.selection).row)
        }
        // Tiles 0 to 3 are rows 1 to 4, in item order, alternating columns as they were placed.
        #expect(selected == [1, 2, 3, 4])
        _ = viewer.handle(.backTab)
        #expect(viewer.selection?.row == 3)
        // The highlight covers the item's own columns: tile 2 (column 0, x 15, 167.5 wide) spans columns 3 to 36.
        let lines = TerminalFrame.lines(viewer)
        let highlighted = try #require(lines.first { $0.contains("T2") })
        #expect(highlighted.hasPrefix("   \u{1b}[7m"), "\(highlighted)")
    }
}
