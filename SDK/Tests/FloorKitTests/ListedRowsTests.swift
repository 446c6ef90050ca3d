import CFloorABI
import Testing

@testable import FloorKit

/// The rows a floor's expand listed, as the SDK keeps them for the host's later calls (height, cell, taps:
/// each asks for row i's item): runs of rows whose items follow one another, read back row by row as listed.
struct ListedRowsTests {
    /// A feed's rows: a top margin, a sticky header, a strip, `items` cards, a bottom margin.
    func feedRows(items: Int) -> [ListedRow] {
        [
            ListedRow(type: 1, item: 0, flags: 0),
            ListedRow(type: 0, item: 0, flags: FLOOR_ROW_HEADER | FLOOR_ROW_STICKY),
            ListedRow(type: 2, item: 0, flags: FLOOR_ROW_STICKY),
        ] + (0..<items).map { ListedRow(type: 3, item: $0, flags: 0) } + [ListedRow(type: 1, item: 1, flags: 0)]
    }

    @Test func aRowPerItemIsOneRunAndReadsBackAsListed() {
        let listed = feedRows(items: 1_000)
        let rows = ListedRows(listed)
        #expect(Array(rows) == listed)
        #expect(rows.count == 1_004)
        // Margin, header, strip, the 1,000 cards, margin: what is kept does not grow with the items.
        #expect(rows.runCount == 5)
    }

    @Test func rowsWhoseItemsDoNotFollowAreRunsOfTheirOwn() {
        let listed =
            [3, 3, 7, 2, 3, 4, 4].map { ListedRow(type: 5, item: $0, flags: 0) }
            + [ListedRow(type: 6, item: 5, flags: 0), ListedRow(type: 5, item: 6, flags: FLOOR_ROW_ITEM)]
        let rows = ListedRows(listed)
        #expect(Array(rows) == listed)
        // [3] [3] [7] [2,3,4] [4] [5 of type 6] [6 with other flags].
        #expect(rows.runCount == 7)
        #expect(ListedRows().isEmpty && ListedRows().runCount == 0)
    }

    /// A next page's items go in before the bottom margin (an ItemsFloor's extend): they continue the
    /// cards' run, and every row reads as the same insert into a plain array would give.
    @Test func insertedRowsReadAsAnArrayInsertAndContinueTheirRun() {
        var listed = feedRows(items: 20)
        var rows = ListedRows(listed)
        let added = (20..<40).map { ListedRow(type: 3, item: $0, flags: 0) }
        listed.insert(contentsOf: added, at: listed.count - 1)
        rows.insert(contentsOf: ListedRows(added), at: rows.count - 1)
        #expect(Array(rows) == listed)
        #expect(rows.runCount == 5)
    }

    /// Inserts anywhere (inside a run, at its ends, at both ends of the list) against a plain array, with a
    /// seeded generator: the same rows, in the same order, every time.
    @Test func insertsAnywhereMatchAnArray() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<200 {
            var listed = (0..<next(30)).map { _ in ListedRow(type: Int32(next(2)), item: next(8), flags: 0) }
            var rows = ListedRows(listed)
            for _ in 0..<4 {
                let at = next(listed.count + 1)
                let first = next(10)
                let added = (0..<next(6)).map { ListedRow(type: Int32(next(2)), item: first + $0, flags: 0) }
                listed.insert(contentsOf: added, at: at)
                rows.insert(contentsOf: ListedRows(added), at: at)
                #expect(Array(rows) == listed)
            }
        }
    }

    /// Listing rows from a row on, a run at a time (what expand hands the host), reads as the rows from there.
    @Test func runsFromARowOnAreTheRowsFromThere() {
        let listed = feedRows(items: 6)
        let rows = ListedRows(listed)
        for start in 0...listed.count {
            var seen: [(Int32, UInt32)] = []
            rows.forEachRun(from: start) { type, flags, count in
                seen += Array(repeating: (type, flags), count: count)
            }
            #expect(seen.map(\.0) == listed[start...].map(\.type))
            #expect(seen.map(\.1) == listed[start...].map(\.flags))
        }
    }
}
