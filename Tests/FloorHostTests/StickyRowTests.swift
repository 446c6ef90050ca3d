import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import Testing

/// A plugin's own sticky row (FLOOR_ROW_STICKY without FLOOR_ROW_HEADER) pins exactly as a sticky title
/// header does: pinned once it scrolls above the top while its floor scrolls under it, pushed up and
/// replaced by the next sticky row. Every front end shows the same pinned row (json `pinned`, text).
struct StickyRowTests {
    let folder: TemporaryFolder
    let plugins: String
    let page: String

    /// Countdown "sale" (countdown.c): banner 0..<100, sticky strip (row 1) 100..<130, 6 lines of 50 to
    /// 430. Then ProductFeed "feed" whose title header is sticky, at 430.
    init() throws {
        folder = try TemporaryFolder()
        plugins = try folder.installShippedPlugins(["ProductFeed"])
        try compileCPlugin("countdown.c", to: plugins + "/libCountdown.so")
        let items = (0..<20).map { #"{"id":"p\#($0)","title":"T\#($0)","price":"¥1","img":"i.jpg"}"# }
        page = try folder.write(
            "countdown.json",
            #"{"floors":[{"type":"Countdown","id":"sale","lines":6},{"type":"ProductFeed","id":"feed","header":{"title":"Feed","sticky":true},"items":[\#(items.joined(separator: ","))]}]}"#
        )
    }

    @Test func aPluginsStickyRowPinsAndTheNextStickyHeaderTakesOver() throws {
        let adapter = try FloorHost(pluginFolder: plugins).layout(page: page, width: 375)
        func pinned(at offset: Double) -> PinnedHeader? {
            adapter.pinnedHeader(in: Viewport(width: 375, height: 812, offset: offset))
        }
        let strip = adapter.describe(row: 1)
        let header = try #require(adapter.rowIndex(section: 1, row: 0))
        #expect(strip.type == "CountdownStrip" && strip.isSticky && !strip.isHeader)
        #expect(strip.y == 100 && adapter.describe(row: header).y == 430)

        #expect(pinned(at: 0) == nil)
        #expect(pinned(at: 99) == nil, "the banner's rows above it do not pin it")
        #expect(pinned(at: 100) == nil, "in its own place, not pinned")
        #expect(pinned(at: 101) == PinnedHeader(row: 1, floor: "sale", y: 0))
        #expect(pinned(at: 400) == PinnedHeader(row: 1, floor: "sale", y: 0))
        // The feed's header reaches the strip's bottom at 430 - 30 = 400, then pushes it up point for point.
        #expect(pinned(at: 410) == PinnedHeader(row: 1, floor: "sale", y: -10))
        #expect(pinned(at: 431) == PinnedHeader(row: header, floor: "feed", y: 0))
    }

    /// With no sticky row after it, the end of its floor pushes the strip up as it leaves: the pinned row
    /// never covers the next floor's rows (as a table's section header never covers the next section).
    @Test func theEndOfItsFloorPushesThePinnedRowUp() throws {
        let items = (0..<3).map { #"{"id":"p\#($0)","title":"T\#($0)","price":"¥1","img":"i.jpg"}"# }
        let plain = try folder.write(
            "plain.json",
            #"{"floors":[{"type":"Countdown","id":"sale","lines":6},{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}]}"#
        )
        let adapter = try FloorHost(pluginFolder: plugins).layout(page: plain, width: 375)
        func pinned(at offset: Double) -> PinnedHeader? {
            adapter.pinnedHeader(in: Viewport(width: 375, height: 812, offset: offset))
        }
        // The sale floor ends at 430 and the strip is 30 points: pinned flat until 400, then pushed.
        #expect(pinned(at: 400) == PinnedHeader(row: 1, floor: "sale", y: 0))
        #expect(pinned(at: 410) == PinnedHeader(row: 1, floor: "sale", y: -10))
        #expect(pinned(at: 429) == PinnedHeader(row: 1, floor: "sale", y: -29))
        #expect(pinned(at: 430) == nil, "its floor has left the screen")
    }

    @Test func jsonNamesThePinnedRowAndMarksItSticky() throws {
        let result = try floorhost([
            "--plugins", plugins, page, "--format", "json", "--viewport", "375x240", "--scroll-to", "200",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result.stdout)
        let viewport = try #require(json["viewport"] as? [String: Any])
        #expect(viewport["pinned"] as? String == "sale")
        #expect(viewport["pinnedRow"] as? Int == 1)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows[1]["sticky"] as? Bool == true && rows[1]["header"] == nil, "a sticky row that is not a header")
        #expect(rows[0]["sticky"] == nil)

        let later = try jsonObject(
            try floorhost([
                "--plugins", plugins, page, "--format", "json", "--viewport", "375x240", "--scroll-to", "500",
            ]).stdout)
        #expect(
            (later["viewport"] as? [String: Any])?["pinned"] as? String == "feed", "the feed's sticky header took over")
    }

    @Test func theTextScreenDrawsThePinnedRowOnTop() throws {
        let result = try floorhost(["--plugins", plugins, page, "--viewport", "375x240", "--scroll-to", "200"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // The strip (30 points, 2.5 lines) is drawn over the screen's first lines, its last one marked "pinned".
        #expect(
            lines[0].contains("Ends in 01:23:45"), "the pinned strip is on the screen's first line: \(result.stdout)")
        #expect(lines.prefix(3).contains { $0.hasSuffix("pinned") }, "\(result.stdout)")
        #expect(!result.stdout.contains("Flash sale banner"), "the banner has scrolled away")
    }

    @Test func theTerminalViewDrawsThePinnedRowOnTopUntilTheHeaderTakesOver() throws {
        let viewer = try PageViewer(
            host: try FloorHost(pluginFolder: plugins), page: page, root: PageRoot(around: page), columns: 60, lines: 20
        )
        viewer.resume(at: 200)
        #expect(TerminalFrame.lines(viewer)[0].contains("Ends in 01:23:45"), "\(TerminalFrame.lines(viewer))")
        viewer.resume(at: 500)
        let screen = TerminalFrame.lines(viewer)
        #expect(
            screen.prefix(2).contains { $0.contains("Feed") && $0.hasSuffix("pinned") }
                && !screen.joined().contains("Ends in"),
            "the feed's header took over: \(screen)")
    }

    /// The html preview (and serve's pinned element, which is this row's html) marks the row sticky, not a
    /// header.
    @Test func theHTMLRowIsMarkedStickyAndNotAHeader() throws {
        let adapter = try FloorHost(pluginFolder: plugins).layout(page: page, width: 375)
        let strip = HTMLRenderer.row(adapter, 1)
        let header = HTMLRenderer.row(adapter, try #require(adapter.rowIndex(section: 1, row: 0)))
        #expect(strip.hasPrefix(#"<div class="row sticky" id="r1""#), "\(strip)")
        #expect(
            header.hasPrefix(#"<div class="row header sticky""#), "a sticky header's element is as before: \(header)")
    }
}
