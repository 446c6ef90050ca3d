import CFloorABI
import FloorLayout
import FloorRuntime
import FloorSession
import Testing

/// The row table's index of sticky rows (what pinning searches): ascending, and kept in step by every
/// replace (an append, an edit in the middle that shifts the rows after it, a removal at the end).
struct StickyRowIndexTests {
    private func rows(_ flags: [UInt32]) -> [ExpandedRow] {
        flags.enumerated().map { .init(index: UInt32($0.offset), type: 0, flags: $0.element) }
    }

    @Test func everyEditKeepsTheStickyRowsInOrder() {
        let sticky = FLOOR_ROW_STICKY
        let header = FLOOR_ROW_HEADER | FLOOR_ROW_STICKY
        var table = RowTable()
        table.replace(0..<0, with: rows([header, 0, 0, sticky, 0]), section: 0)
        #expect(table.stickyRows == [0, 3], "a sticky header and a plain sticky row alike")
        table.replace(5..<5, with: rows([0, sticky]), section: 1)
        #expect(table.stickyRows == [0, 3, 6])
        // Row 1..<2 becomes three rows, one sticky: the rows after it move down by two.
        table.replace(1..<2, with: rows([0, sticky, 0]), section: 0)
        #expect(table.stickyRows == [0, 2, 5, 8])
        // Rows 2..<6 (two sticky ones among them) become one plain row: the rest move up by three.
        table.replace(2..<6, with: rows([0]), section: 0)
        #expect(table.stickyRows == [0, 5])
        table.replace(3..<table.count, with: [ExpandedRow](), section: 0)
        #expect(table.stickyRows == [0])
        #expect((0..<table.count).filter { table[$0].flags & FLOOR_ROW_STICKY != 0 } == table.stickyRows)
    }

    @Test func theStickyRowsAboveAnOffsetAreFoundByTheirTops() {
        var table = RowTable()
        table.replace(0..<0, with: rows([0, FLOOR_ROW_STICKY, 0, FLOOR_ROW_STICKY, 0]), section: 0)
        for r in 0..<table.count { table[r].height = 10 }
        table.recomputeTops(from: 0)  // sticky rows at 10 and 30
        #expect(table.stickyRowsStarting(before: 10) == 0, "a row at the offset has not scrolled above it")
        #expect(table.stickyRowsStarting(before: 10.5) == 1)
        #expect(table.stickyRowsStarting(before: 31) == 2)
    }
}
