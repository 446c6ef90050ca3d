import CFloorABI
import FloorKitTesting
import Testing

/// How the SDK lists a floor's rows and answers the host's per-row calls (Thunks, FloorRows): every row as the
/// model appended it, of whatever row type and in whatever order, through the C selectors floorhost calls.
@Suite struct RowListingTests {
    let host: FloorTestHost

    init() throws { host = try FloorTestHost.load(mixedPluginEntry) }

    func floor(_ cells: [String], common: String = "") throws -> TestFloor {
        let list = cells.map { "\"\($0)\"" }.joined(separator: ",")
        return try host.decode(#"{"type":"MixedRows","id":"m"\#(common),"cells":[\#(list)]}"#)
    }

    /// What row `row` draws: "MixedTile 3".
    func shown(_ floor: TestFloor, _ row: Int) throws -> String {
        try floor.draw(row: row, width: 375).texts.joined(separator: " ")
    }

    @Test func rowsOfSeveralTypesAreListedInTheOrderTheModelAppendedThem() throws {
        let cells = [
            "card:5", "tile:0", "tile:1", "tile:2", "orphan:9", "tile:3", "rule:7", "tile:8", "tile:9",
            "sticky-card:1", "card:2", "card:3", "card:3", "tile:2", "rule:8", "rule:9",
        ]
        let floor = try floor(
            cells, common: #","header":{"title":"Mixed","sticky":true},"margin":{"top":4,"bottom":6}"#)
        // The orphan's row type was never registered: its row is left out, and nothing else moves.
        let listed = cells.filter { !$0.hasPrefix("orphan") }
        #expect(
            floor.rows.map(\.type)
                == ["MixedRowsMargin", "MixedRowsHeader"]
                + listed.map { cell in
                    switch cell.prefix(while: { $0 != ":" }) {
                    case "tile": "MixedTile"
                    case "rule": "MixedRule"
                    default: "MixedCard"
                    }
                } + ["MixedRowsMargin"])
        #expect(floor.rows[1].isHeader && floor.rows[1].isSticky)
        #expect(floor.rows.map(\.isItem) == [false, false] + listed.map { $0.hasPrefix("tile") } + [false])
        #expect(floor.rows.filter(\.isSticky).map(\.index) == [1, 2 + listed.firstIndex(of: "sticky-card:1")!])
        // Each row draws and measures the item it was appended with.
        for (offset, cell) in listed.enumerated() {
            let item = Int(cell.split(separator: ":")[1])!
            #expect(try shown(floor, 2 + offset) == "\(floor.rows[2 + offset].type) \(item)")
            #expect(try floor.height(row: 2 + offset, width: 375) == 10 + Double(item))
        }
        #expect(try floor.height(row: 0, width: 375) == 4)
        #expect(try floor.height(row: floor.rows.count - 1, width: 375) == 6)
    }

    /// Every row type's answer to tappable_items: a `taps` closure's count, one for a row type with an action
    /// and no `taps`, none for a row type without an action and for the SDK's header and margin rows.
    @Test func eachRowTypeAnswersItsTappableItems() throws {
        let floor = try floor(
            ["tile:0", "tile:2", "card:4", "tile:7", "rule:1", "card:0"],
            common: #","header":{"title":"T"},"margin":{"top":3}"#)
        #expect(try floor.rows.indices.map { try floor.tappableItems(row: $0) } == [0, 0, 0, 2, 1, 3, 0, 1])
        #expect(try floor.tap(row: 3, item: 1)?.url == "app://tile/2/1")
        #expect(try floor.tap(row: 4, item: 0)?.url == "app://card/4")
        #expect(try floor.tap(row: 7, item: 0)?.url == "app://card/0")
    }

    /// Items are kept in 32 bits (ListedRow): one outside is clamped, and a run of following items stops
    /// where the next would not fit rather than wrap.
    @Test func itemsAtTheEdgesOf32BitsAreClampedNotWrapped() throws {
        let large = Int(Int32.max)
        let small = Int(Int32.min)
        let floor = try floor(
            [
                "rule:\(large - 1)", "rule:\(large)", "rule:\(large + 1)", "rule:\(Int.max)", "rule:\(small - 1)",
                "rule:\(small)", "rule:\(small + 1)", "rule:-1", "rule:0",
            ])
        #expect(
            try floor.rows.indices.map { try shown(floor, $0) }
                == [large - 1, large, large, large, small, small, small + 1, -1, 0].map { "MixedRule \($0)" })
    }
}
