import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import HostContract
import Testing

/// Item frames (docs/ABI.md, "Item frames"): cells say where their tappable items are while drawing; taps,
/// the selection highlight and impressions use the frames; a row that reports none (a 1.4 plugin) keeps
/// the divide-by-width rule.
struct ItemFrameTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("itemframes")
        plugins = try folder.installShippedPlugins(["IconGrid"])
        try compileCPlugin("tapper.c", to: plugins + "/libTapper.so")
    }

    /// The page's floors laid out 375 points wide in a session with `impressions`.
    func open(_ floors: [String], impressions: ImpressionRule? = nil, clock: ImpressionClock? = nil) throws
        -> PageSession
    {
        let page = try folder.write("page.json", #"{"floors":[\#(floors.joined(separator: ","))]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: page, width: 375)
        return PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
            impressions: impressions, impressionClock: clock ?? .simulated(step: 1000))
    }

    static func icons(_ count: Int) -> String {
        (0..<count).map {
            #"{"id":"i\#($0)","img":"icon\#($0).png","title":"Icon \#($0)","jump":{"url":"app://i\#($0)"}}"#
        }
        .joined(separator: ",")
    }

    static let sixIcons = #"{"type":"IconGrid","id":"grid","columns":4,"items":[\#(icons(6))]}"#

    /// The grid's second line holds two icons in the first two of four columns: a tap in column 2 hits icon
    /// 5 (1.4's rule would share the width between the two and pick icon 4), a tap in column 4 hits nothing.
    @Test func aTapHitsTheIconWhoseFrameHoldsThePoint() throws {
        let session = try open([Self.sixIcons])
        let adapter = session.adapter
        let line = try #require(adapter.rowIndex(section: 0, row: 1))
        let slot = 375.0 / 4
        #expect(
            adapter.reportedFrames(row: line)
                == [
                    ItemFrame(item: 0, x: 0, y: 0, width: slot, height: 84),
                    ItemFrame(item: 1, x: slot, y: 0, width: slot, height: 84),
                ])
        #expect(adapter.item(atX: 1.5 * slot, y: 40, row: line) == 1)
        #expect(Int(1.5 * slot / 375 * 2) == 0, "what dividing the width would have picked")
        #expect(adapter.item(atX: 3.5 * slot, y: 40, row: line) == nil, "no icon in the fourth column")
        guard case .success(let action) = session.tap(section: 0, row: 1, item: 1) else {
            Issue.record("icon 5 is tappable")
            return
        }
        #expect(action.url == "app://i5")
    }

    /// Tapper's "frames" text: item 0 reported twice (the second wins), item 1 far outside the cell (clipped
    /// to it), item 7 past its three items (not one), item 2 none (not shown).
    @Test func framesAreClippedToTheCellAndTheLastReportWins() throws {
        let session = try open([#"{"type":"Tapper","id":"t","text":"frames"}"#])
        let frames = session.adapter.reportedFrames(row: 0)
        #expect(
            frames
                == [
                    ItemFrame(item: 0, x: 200, y: 0, width: 100, height: 36),
                    ItemFrame(item: 1, x: 0, y: 0, width: 375, height: 36),
                ])
        #expect(session.adapter.itemFrames(row: 0) == frames, "a row with frames does not fall back")
        #expect(session.adapter.item(atX: 10, y: 10, row: 0) == 1)
    }

    /// A plugin built against 1.4 (its row type ends before `pages`, its cells report no frames) loads, keeps
    /// its taps, and its items share the row's width: 1.4's rule.
    @Test func aRowOfA14PluginKeepsTheDivideByWidthRule() throws {
        try compileCPlugin("tapper.c", to: plugins + "/libTapper.so", defines: ["ABI_1_4_STRUCTS"])
        let session = try open([#"{"type":"Tapper","id":"t","text":"frames"}"#])
        let adapter = session.adapter
        #expect(adapter.tappableItems(row: 0) == 3, "a 1.4 row type keeps tappable and action")
        #expect(adapter.reportedFrames(row: 0).isEmpty)
        #expect(
            adapter.itemFrames(row: 0)
                == (0..<3).map { ItemFrame(item: $0, x: Double($0) * 125, y: 0, width: 125, height: 36) })
        #expect(adapter.item(atX: 10, y: 30, row: 0) == 0)
        #expect(adapter.item(atX: 260, y: 0, row: 0) == 2)
        #expect(adapter.pageCount(ofRow: 0) == 1)
        #expect((try? session.tap(section: 0, row: 0, item: 2).get())?.url == "app://tapper")
    }

    /// `view`'s highlight is the selected icon's column, not the whole line: Tab twice selects icon 1, whose
    /// frame starts 94 points (19 columns) in.
    @Test func theSelectionHighlightIsTheItemsFrame() throws {
        let page = try folder.write("grid.json", #"{"floors":[\#(Self.sixIcons)]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let viewer = try PageViewer(host: host, page: page, root: PageRoot(around: page), columns: 75, lines: 30)
        _ = viewer.handle(.tab)
        _ = viewer.handle(.tab)
        #expect(viewer.selection?.item == 1)
        let lines = TerminalFrame.lines(viewer).prefix(17)
        let highlighted = lines.filter { $0.contains("\u{1b}[7m") }
        #expect(highlighted.count == 7, "the icon line's 84 points: 7 lines\n\(lines.joined(separator: "\n"))")
        for line in highlighted {
            let before = try #require(line.components(separatedBy: "\u{1b}[7m").first)
            #expect(DisplayWidth.of(before) == 19, "\(line)")
            let inside = try #require(
                line.components(separatedBy: "\u{1b}[7m").last?.components(separatedBy: "\u{1b}[27m").first)
            #expect(DisplayWidth.of(inside) == 19, "a quarter of 75 columns: \(line)")
        }
    }

    /// `floorhost conform` fails drawing-bounds for a frame outside the cell (Tapper's item 1) and, alone, passes
    /// the same plugin whose sample reports no frame.
    @Test func conformFailsAFrameOutsideTheCell() throws {
        let library = folder.file("libTapperFrames.so")
        try compileCPlugin("tapper.c", to: library, defines: [#"SAMPLE_TEXT="frames""#])
        let result = try floorhost(["conform", "--format", "json", library])
        #expect(result.status == 1, "\(result.stderr)")
        let plugin = try #require((try jsonObject(result.stdout)["plugins"] as? [[String: Any]])?.first)
        let checks = try #require(plugin["checks"] as? [[String: Any]])
        let failed = checks.filter { $0["verdict"] as? String == "fail" }
        #expect(failed.map { $0["check"] as? String } == ["drawing-bounds"], "\(failed)")
        let reason = failed.first?["reason"] as? String ?? ""
        #expect(reason.contains("reported the frame of item 1 at (x: -50.0, y: -50.0"), "\(reason)")
        let plain = try floorhost(["conform", "--format", "json", plugins + "/libTapper.so"])
        #expect(plain.status == 0, "\(plain.stdout)")
    }

    /// Impressions count items where their frames are: Tapper's items 0 and 1 count one by one, item 2
    /// (no frame: not shown) never does.
    @Test func impressionsCountTheItemsTheFramesShow() throws {
        let session = try open(
            [#"{"type":"Tapper","id":"t","text":"frames"}"#],
            impressions: ImpressionRule(fraction: 0.5, milliseconds: 500))
        session.settleImpressions()
        let items = session.events.compactMap { event -> Int? in
            guard case .impression(let seen) = event else { return nil }
            return seen.item
        }
        #expect(items == [0, 1])
    }

    /// Frames are kept for at most `Adapter.framesRemembered` rows: drawing every row of a long page (as a
    /// text render does) does not keep every row's, and a row drawn again still has its frames.
    @Test func framesAreKeptForABoundedNumberOfRows() throws {
        let floors = (0..<(Adapter.framesRemembered / 2 + 10)).map {
            #"{"type":"IconGrid","id":"g\#($0)","columns":4,"items":[\#(Self.icons(8))]}"#
        }
        let session = try open(floors)
        let adapter = session.adapter
        #expect(adapter.rowCount > Adapter.framesRemembered)
        for r in 0..<adapter.rowCount { adapter.drawCell(row: r, into: RecordingCanvas()) }
        #expect(adapter.drawnFrames.count <= Adapter.framesRemembered)
        #expect(adapter.reportedFrames(row: 0).map(\.item) == [0, 1, 2, 3])
    }

    /// The whole page drawn as text (which no one taps) keeps no row's frames; a screen drawn as text keeps
    /// those of the rows it shows; a row asked for its frames after the whole page is drawn again for them.
    @Test func aWholePageTextRenderKeepsNoFrames() throws {
        let session = try open([Self.sixIcons])
        let adapter = session.adapter
        var out = TextOutput()
        TextRenderer.write(adapter, options: TextRenderer.Options(), to: &out)
        #expect(!out.isEmpty)
        #expect(adapter.drawnFrames.isEmpty)
        let line = try #require(adapter.rowIndex(section: 0, row: 1))
        #expect(adapter.reportedFrames(row: line).map(\.item) == [0, 1])
        TextRenderer.write(adapter, viewport: session.viewport, options: TextRenderer.Options(), to: &out)
        #expect(!adapter.drawnFrames.isEmpty)
    }
}
