import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A page measured as its text preview reaches its rows (Adapter's `.asReached`, ARCHITECTURE.md "Output
/// contract"): the same heights, frames and bytes as a page measured whole before it is drawn, and its heights
/// asked only as the drawing comes to them. tiles.c lays its items out as a waterfall, a grid or a list, so the
/// floors here mix collections with full-width rows.
struct MeasuredAsDrawnTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder("measured-as-drawn")
        host = try tilesHost(in: folder)
    }

    /// Six floors: a waterfall, a list of 200 tiles, an empty floor, a grid, a waterfall with a square tile, a
    /// list.
    func page() throws -> String {
        func tiles(_ id: String, _ heights: [Double], _ extra: String = "") -> String {
            let list = heights.map { String($0) }.joined(separator: ",")
            return #"{"type":"Tiles","id":"\#(id)","heights":[\#(list)]\#(extra)}"#
        }
        let floors = [
            tiles("a", [100, 40, 60, 30, 80, 20, 50], #","title":true,"end":true"#),
            tiles("b", (0..<200).map { Double(20 + $0 % 7) }, #","layout":"list""#),
            tiles("c", []),
            tiles("d", [70, 10, 90, 40, 40], #","layout":"grid","columns":3,"title":true"#),
            tiles("e", [-1, 33, 12], #","end":true"#),
            tiles("f", [44], #","layout":"list","title":true"#),
        ]
        return try folder.write("page.json", #"{"floors":[\#(floors.joined(separator: ","))]}"#)
    }

    func adapter(_ measuring: Adapter.Measuring) throws -> Adapter {
        try host.layout(
            page: page(), root: nil, remote: nil, width: 375, dispatch: .typed, measuring: measuring)
    }

    @Test func rowsReachedInStepsHaveTheFramesOfAPageMeasuredWhole() throws {
        let whole = try adapter(.now)
        let reached = try adapter(.asReached)
        #expect(whole.isMeasured && !reached.isMeasured)
        #expect(reached.rowCount == whole.rowCount && reached.stats.heightCalls == 0)
        // Steps that start and end inside floors: every row reached has its final frame, and no later step
        // moves it.
        for r in stride(from: 1, to: reached.rowCount, by: 3) {
            reached.measure(throughRow: r)
            for q in 0...r {
                #expect(reached.frame(of: q) == whole.frame(of: q), "row \(q) after measuring through row \(r)")
            }
        }
        reached.measureRest()
        #expect(reached.isMeasured)
        #expect(reached.totalHeight == whole.totalHeight)
        #expect((0..<whole.rowCount).allSatisfy { reached.frame(of: $0) == whole.frame(of: $0) })
        #expect(reached.stats.heightCalls == whole.stats.heightCalls)
    }

    /// A list floor is measured a few rows ahead of the drawing (`Adapter.rowsMeasuredAhead`), a collection
    /// floor whole (its items are placed together).
    @Test func aListIsMeasuredAFewRowsAheadAndACollectionWhole() throws {
        let reached = try adapter(.asReached)
        reached.measure(throughRow: 0)
        let waterfall = 9  // its title, 7 tiles, its end
        #expect(reached.stats.heightCalls == waterfall)
        reached.measure(throughRow: waterfall)
        #expect(reached.stats.heightCalls == waterfall + 64)
        reached.measure(throughRow: waterfall + 64 + 10)
        #expect(reached.stats.heightCalls == waterfall + 64 + 64)
        reached.measure(throughRow: waterfall + 199)
        #expect(reached.stats.heightCalls == waterfall + 200, "no further than the list's end")
        reached.measure(throughRow: waterfall + 200)
        #expect(reached.stats.heightCalls == waterfall + 200 + 6, "the grid whole: its title and 5 tiles")
    }

    @Test func theTextPreviewOfAPageMeasuredAsDrawnIsTheSameBytes() throws {
        for options in [
            TextRenderer.Options(columns: 75), TextRenderer.Options(columns: 40, styled: true, gutter: true),
        ] {
            var whole = TextOutput()
            TextRenderer.write(try adapter(.now), options: options, to: &whole)
            let reached = try adapter(.asReached)
            var drawn = TextOutput()
            TextRenderer.write(reached, options: options, to: &drawn)
            #expect(reached.isMeasured, "the drawing measured every floor")
            #expect(drawn.expanded == whole.expanded, "\(String(decoding: drawn.expanded, as: UTF8.self))")
        }
    }
}
