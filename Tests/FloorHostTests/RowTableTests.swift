import FloorLayout
import FloorSession
import Testing

/// The row table's prefix sums and searches, on rows written here.
struct RowTableTests {
    /// A table of `heights.count` rows of section 0, measured.
    private func table(_ heights: [Double]) -> RowTable {
        var rows = RowTable()
        rows.replace(0..<0, with: heights.indices.map { .init(index: UInt32($0), type: 0, flags: 0) }, section: 0)
        for (r, height) in heights.enumerated() { rows[r].height = height }
        rows.recomputeTops(from: 0)
        return rows
    }

    @Test func topsArePrefixSumsAndEachBottomIsTheNextTop() {
        let rows = table([10, 0, 25.5, 4])
        #expect((0..<rows.count).map { rows[$0].top } == [0, 10, 10, 35.5])
        #expect(rows.totalHeight == 39.5)
        for r in 0..<(rows.count - 1) { #expect(rows[r].bottom == rows[r + 1].top) }
        #expect(RowTable().totalHeight == 0)
    }

    @Test func replacingRowsInTheMiddleLeavesThemUnmeasuredUntilRecomputed() {
        var rows = table([10, 20, 30])
        rows.replace(1..<2, with: [.init(index: 7, type: 2, flags: 1), .init(index: 8, type: 2, flags: 0)], section: 3)
        #expect(rows.count == 4)
        #expect(rows[1].height.isNaN && rows[2].height.isNaN)
        #expect((rows[1].section, rows[1].index, rows[1].type, rows[1].flags) == (3, 7, 2, 1))
        #expect(rows[3].height == 30 && rows[3].index == 2, "the row after the edit keeps its height")
        rows[1].height = 5
        rows[2].height = 6
        rows.recomputeTops(from: 1)
        #expect((0..<rows.count).map { rows[$0].top } == [0, 10, 15, 21])
        #expect(rows.totalHeight == 51)
    }

    @Test func searchesFindTheRowUnderAnOffset() {
        let rows = table([10, 0, 20])  // row 0: 0..<10, row 1: 10..<10, row 2: 10..<30
        #expect(rows.row(at: -5) == 0)
        #expect(rows.row(at: 9.9) == 0)
        #expect(rows.row(at: 10) == 2, "the last row starting at or above the offset")
        #expect(rows.row(at: 100) == 2)
        #expect(RowTable().row(at: 0) == nil)
        #expect(rows.firstRow(endingAfter: 10) == 2)
        #expect(rows.firstRow(endingAfter: 30) == 3)
        #expect(rows.rowsStarting(before: 10) == 1)
        #expect(rows.rowsStarting(before: 10.5) == 3)
    }

    @Test func appendingPastTheHeadroomKeepsEveryRow() {
        var rows = table(Array(repeating: 2, count: 1_000))
        for page in 0..<3 {
            rows.replace(
                rows.count..<rows.count, with: (0..<500).map { .init(index: UInt32($0), type: Int32(page), flags: 0) },
                section: page + 1)
            for r in (rows.count - 500)..<rows.count { rows[r].height = 1 }
            rows.recomputeTops(from: rows.count - 500)
        }
        #expect(rows.count == 2_500)
        #expect(rows.totalHeight == 2_000 + 1_500)
        #expect(rows[1_000].top == 2_000 && rows[2_499].section == 3 && rows[2_499].index == 499)
    }
}
