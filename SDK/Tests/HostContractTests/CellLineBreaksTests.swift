import CellLineBreaks
import HostContract
import Testing

// The cell rules' one implementation (CellLineBreaks), which the host's FLOOR_TEXT_CELL layout and the SDK's
// fallback on a 1.4 host both break by: where lines break, what is dropped, what a cut line ends in.

@Suite struct CellLineBreaksTests {
    /// Lines `columns` wide of `text` at one column a character, two for those in `wide`.
    static func lines(_ text: String, columns: Int, limit: Int = .max, wide: Set<Character> = ["宽", "字"])
        -> [String]
    {
        CellLineBreaks.lines(of: text, columns: columns, limit: limit, width: { wide.contains($0) ? 2 : 1 }).lines
    }

    @Test func breaksAfterSpacesAndDropsThemAtTheBreak() {
        #expect(Self.lines("alpha beta gamma", columns: 11) == ["alpha beta", "gamma"])
        #expect(Self.lines("alpha    beta", columns: 7) == ["alpha", "beta"])
    }

    @Test func breaksOnEitherSideOfAWideCharacter() {
        #expect(Self.lines("ab宽字cd", columns: 4) == ["ab宽", "字cd"])
        #expect(Self.lines("宽字宽", columns: 3) == ["宽", "字", "宽"])
    }

    @Test func aWordLongerThanALineBreaksBetweenCharacters() {
        #expect(Self.lines("abcdefgh", columns: 3) == ["abc", "def", "gh"])
    }

    @Test func lineFeedsEndLinesAndEmptyLinesStay() {
        #expect(Self.lines("a\n\nb", columns: 10) == ["a", "", "b"])
        #expect(Self.lines("", columns: 10).isEmpty)
    }

    @Test func aCutLastLineEndsInAnEllipsisWithinItsColumns() {
        let cut = CellLineBreaks.lines(of: "alpha beta gamma delta", columns: 10, limit: 2, width: { _ in 1 })
        #expect(cut.lines == ["alpha beta", "gamma…"] && cut.truncated)
        #expect(Self.lines("abcdefghij klm", columns: 10, limit: 1) == ["abcdefghi…"])
        #expect(Self.lines("宽字宽字宽 x", columns: 10, limit: 1) == ["宽字宽字…"])
    }

    @Test func theHostsCellLayoutBreaksByThem() {
        let block = CellTextLayout.layout("alpha beta gamma delta", maxWidth: 50, maxLines: 2)
        #expect(block.lines.map(\.text) == ["alpha beta", "gamma…"] && block.truncated)
    }
}
