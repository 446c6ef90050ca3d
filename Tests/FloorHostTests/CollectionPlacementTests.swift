import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Collection floors (docs/ABI.md, "Collections"): the host places item rows into columns. Every expected
/// frame here is worked out by hand from the rules, not read back from the code. The plugin is tiles.c
/// (waterfall by default, 2 columns, column gap 10, line gap 5, inset 15): at 375 points a column is
/// (375 - 2 x 15 - 10) / 2 = 167.5 wide, column 0 at x 15, column 1 at x 15 + 167.5 + 10 = 192.5.
struct CollectionPlacementTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder("collections")
        host = try tilesHost(in: folder)
    }

    func tiles(_ heights: [Double], _ extra: String = "", id: String = "w") -> String {
        let list = heights.map { String($0) }.joined(separator: ",")
        return #"{"type":"Tiles","id":"\#(id)","heights":[\#(list)]\#(extra)}"#
    }

    func layout(_ floors: String..., width: Double = 375) throws -> Adapter {
        let page = try folder.write("page.json", #"{"floors":[\#(floors.joined(separator: ","))]}"#)
        return try host.layout(page: page, width: width)
    }

    /// The frames of the rows of section `section`, in row order.
    func frames(_ adapter: Adapter, section: Int = 0) -> [RowFrame] {
        var frames: [RowFrame] = []
        var row = 0
        while let r = adapter.rowIndex(section: section, row: row) {
            frames.append(adapter.frame(of: r))
            row += 1
        }
        return frames
    }

    static let seven: [Double] = [100, 40, 60, 30, 80, 20, 50]

    @Test func aWaterfallOfSevenItemsOfKnownHeights() throws {
        let adapter = try layout(tiles(Self.seven, #","title":true,"end":true"#))
        // Title 0..<20 spans the width. Items start at 20; each goes to the column whose next top is highest
        // (left on a tie); an item under another starts 5 below it.
        //   0: h100, next tops 20|20 (tie, left) -> col 0 at 20, ends 120; col 0 next 125
        //   1: h40,  125|20  -> col 1 at 20,  ends 60;  col 1 next 65
        //   2: h60,  125|65  -> col 1 at 65,  ends 125; col 1 next 130
        //   3: h30,  125|130 -> col 0 at 125, ends 155; col 0 next 160
        //   4: h80,  160|130 -> col 1 at 130, ends 210; col 1 next 215
        //   5: h20,  160|215 -> col 0 at 160, ends 180; col 0 next 185
        //   6: h50,  185|215 -> col 0 at 185, ends 235
        // The end row starts below the lowest item, at 235.
        let left = 15.0
        let right = 192.5
        let w = 167.5
        #expect(
            frames(adapter) == [
                RowFrame(x: 0, y: 0, width: 375, height: 20),
                RowFrame(x: left, y: 20, width: w, height: 100),
                RowFrame(x: right, y: 20, width: w, height: 40),
                RowFrame(x: right, y: 65, width: w, height: 60),
                RowFrame(x: left, y: 125, width: w, height: 30),
                RowFrame(x: right, y: 130, width: w, height: 80),
                RowFrame(x: left, y: 160, width: w, height: 20),
                RowFrame(x: left, y: 185, width: w, height: 50),
                RowFrame(x: 0, y: 235, width: 375, height: 10),
            ])
        #expect(adapter.totalHeight == 245)
        #expect(adapter.describe(row: 5).column == 1)
        #expect(adapter.describe(row: 0).column == nil)
    }

    @Test func gridLinesAreAsTallAsTheirTallestItem() throws {
        let adapter = try layout(tiles([30, 50, 20, 10, 40], #","layout":"grid","columns":3"#))
        // 3 columns: (375 - 30 - 20) / 3 = 108.333..., at x 15, 133.333..., 251.666...
        // line 1 at 0: 30, 50, 20 -> 50 tall; line 2 at 55: 10, 40.
        let w = (375.0 - 30 - 20) / 3
        let x = [15, 15 + w + 10, 15 + 2 * (w + 10)]
        #expect(
            frames(adapter) == [
                RowFrame(x: x[0], y: 0, width: w, height: 30),
                RowFrame(x: x[1], y: 0, width: w, height: 50),
                RowFrame(x: x[2], y: 0, width: w, height: 20),
                RowFrame(x: x[0], y: 55, width: w, height: 10),
                RowFrame(x: x[1], y: 55, width: w, height: 40),
            ])
        #expect(adapter.totalHeight == 95)
    }

    @Test func itemsAreMeasuredAtTheColumnWidth() throws {
        // A height of -1 makes a tile square: as high as the width its height calculator was given.
        let adapter = try layout(tiles([-1, -1, -1]), tiles([-1], #","layout":"list""#, id: "l"))
        #expect(frames(adapter).map(\.height) == [167.5, 167.5, 167.5])
        #expect(frames(adapter, section: 1) == [RowFrame(x: 0, y: 167.5 + 5 + 167.5, width: 375, height: 375)])
    }

    @Test func aNextPageAppendsToTheColumnsBottomsAndMovesNothing() throws {
        let adapter = try layout(
            tiles(Self.seven, #","title":true,"end":true"#), tiles([10], #","layout":"list""#, id: "after"))
        let before = frames(adapter)
        let next = try folder.write("next.json", #"{"floors":[\#(tiles([40, 10, 70], #","end":true"#))]}"#)
        adapter.append(try PageDecoder.decode(file: next, registry: host.registry))
        let after = frames(adapter)
        #expect(Array(after.prefix(8)) == Array(before.prefix(8)), "the title and the seven items stay where they were")
        // Next tops after item 6: col 0 at 240, col 1 at 215.
        //   7: h40 -> col 1 at 215, ends 255; col 1 next 260
        //   8: h10 -> col 0 at 240, ends 250; col 0 next 255
        //   9: h70 -> col 0 at 255, ends 325
        #expect(
            Array(after[8..<11]) == [
                RowFrame(x: 192.5, y: 215, width: 167.5, height: 40),
                RowFrame(x: 15, y: 240, width: 167.5, height: 10),
                RowFrame(x: 15, y: 255, width: 167.5, height: 70),
            ])
        #expect(after[11] == RowFrame(x: 0, y: 325, width: 375, height: 10), "the end row moves below the new items")
        #expect(frames(adapter, section: 1) == [RowFrame(x: 0, y: 335, width: 375, height: 10)])
        // Placing the whole floor afresh gives the same frames: the append continued the placing exactly.
        adapter.relayout()
        #expect(frames(adapter) == after)
    }

    @Test func theRowsOnScreenAtAnOffsetIncludeATallItemBesideShortOnes() throws {
        // Column 0: one item 0..<1000; column 1: twenty items of 40, 5 apart (0, 45, ..., 855).
        let adapter = try layout(tiles([1000] + Array(repeating: 40, count: 20)))
        let visible = adapter.visibleRows(in: Viewport(width: 375, height: 100, offset: 500))
        // The tall item (row 0) is on screen; in column 1, the item at 495..<535 (row 12) is the first.
        #expect(visible.first == 0)
        #expect(visible.last == 14, "the item at 585..<625 is the last to start above 600")
        let onScreen = visible.filter { adapter.frame(of: $0).bottom > 500 }
        #expect(onScreen == [0, 12, 13, 14])
    }

    @Test func anItemsHeightOutOfBoundsFollowsTheListRule() throws {
        // docs/ABI.md, "Heights": clamped to 0...FLOOR_MAX_ROW_HEIGHT and reported, for an item as for any row.
        let adapter = try layout(tiles([20000, 40]))
        #expect(frames(adapter).map(\.height) == [10000, 40])
        #expect(frames(adapter).map(\.x) == [15, 192.5], "still placed into its column")
        let messages = host.diagnostics(for: adapter).map(\.message)
        #expect(
            messages.contains { $0.contains("returned a height of 20000.0 points for row type 'Tile'") }, "\(messages)")
    }

    @Test func columnsOnAListAreNotTheHostsToJudge() throws {
        // A list has no columns, and a list-only floor type may have a `columns` field of its own (IconGrid's).
        let adapter = try layout(tiles([30], #","layout":"list","columns":9"#))
        #expect(host.diagnostics(for: adapter).isEmpty)
        #expect(frames(adapter) == [RowFrame(x: 0, y: 0, width: 375, height: 30)])
    }

    @Test func aPluginBuiltAgainst14IsAList() throws {
        let plugins = folder.file("old")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so", defines: ["ABI14"])
        let old = try FloorHost(pluginFolder: plugins)
        let page = try folder.write("old.json", #"{"floors":[\#(tiles([30, 40], #","layout":"waterfall""#))]}"#)
        let adapter = try old.layout(page: page, width: 375)
        #expect(
            frames(adapter) == [
                RowFrame(x: 0, y: 0, width: 375, height: 30), RowFrame(x: 0, y: 30, width: 375, height: 40),
            ])
        let errors = old.diagnostics(for: adapter).filter { $0.level == .error }.map(\.message)
        #expect(
            errors.contains { $0.contains("floors[0].layout") && $0.contains("does not support layout 'waterfall'") })
    }
}
