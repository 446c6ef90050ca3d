import CFloorABI
import FloorLayout
import FloorRender
import FloorSession
import Foundation
import HostContract
import Testing

/// The four catalog plugins load and render the example home page exactly as laid out here.
struct ShippedPluginsTests {
    @Test func everyShippedPluginLoadsCleanly() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        #expect(host.loadDiagnostics == [])
        #expect(
            Set(host.plugins.map(\.id)) == [
                "com.floorkit.floor.focus", "com.floorkit.floor.icon-grid",
                "com.floorkit.floor.product-feed", "com.floorkit.floor.title",
            ])
        #expect(host.registry.floorTypeNames == ["Focus", "IconGrid", "ProductFeed", "Title"])
        #expect(host.registry.rowTypeNames.contains("ProductCard"))
    }

    @Test(arguments: DispatchMode.allCases)
    func homePageRowsTypesHeightsAndOrder(dispatch: DispatchMode) throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375, dispatch: dispatch)
        let rows = (0..<adapter.rowCount).map(adapter.describe(row:))
        // A Title bar follows its text (ABI 1.5 text styles): 10 + a 22-point headline line + 10, and a
        // subtitle adds 2 + an 18-point footnote line. A floor's header is a one-line headline: 42 points too.
        let expected: [(String, String, Double)] =
            [("focus", "FocusCarousel", 150), ("focus", "FocusMargin", 12)]
            + Array(repeating: ("channels", "IconGridLine", 84), count: 2)
            + [("flash-title", "TitleMargin", 12), ("flash-title", "TitleBar", 62)]
            + Array(repeating: ("flash", "ProductCard", 108), count: 3)
            + [
                ("mid-banner", "FocusMargin", 12), ("mid-banner", "FocusCarousel", 150),
                ("mid-banner", "FocusMargin", 12),
            ]
            + [("brands", "IconGridHeader", 42), ("brands", "IconGridLine", 84), ("brands", "IconGridLine", 84)]
            + [
                ("new-title", "TitleMargin", 12), ("new-title", "TitleBar", 42),
                ("new-arrivals", "ProductSortStrip", 36),
            ]
            // A list card is 108 points, 128 when its title takes two lines of body text (the third here).
            + [108, 108, 128, 108].map { ("new-arrivals", "ProductCard", $0) }
            + [("global-title", "TitleBar", 42), ("countries", "IconGridLine", 84)]
            + [("feed", "ProductFeedMargin", 12), ("feed", "ProductFeedHeader", 42)]
            // The feed is a two-column waterfall of stacked cards 175.5 points wide: picture 96, 6, the title
            // (20 a body line), 6, the price (22), 6: 156 points, 176 with a two-line title.
            + [156, 176, 156, 176, 156, 176, 156, 156, 156, 156, 156, 176].map { ("feed", "ProductCard", $0) }
        #expect(rows.map(\.floor) == expected.map(\.0))
        #expect(rows.map(\.type) == expected.map(\.1))
        #expect(rows.map(\.height) == expected.map(\.2))
        // Offsets are the running sum of heights down to the feed's cards; rows of a floor are numbered from 0
        // within it. Each card starts at the top of the shorter column (8 apart), in column 0 (x 8) or 1.
        var y = 0.0
        var columns = [0.0, 0.0]
        for (r, row) in rows.enumerated() {
            guard row.type == "ProductCard", row.floor == "feed" else {
                #expect(row.y == y)
                y += row.height
                columns = [y, y]
                continue
            }
            let column = columns[1] < columns[0] ? 1 : 0
            #expect(row.y == columns[column] && row.column == column && row.x == [8, 191.5][column], "row \(r)")
            columns[column] = row.y + row.height + 8
        }
        #expect(adapter.totalHeight == columns.max()! - 8)
        // New arrivals' sort strip (a plugin's own sticky row) and the feed's sticky header.
        #expect(
            rows.filter(\.isSticky).map { [$0.floor, $0.type] } == [
                ["new-arrivals", "ProductSortStrip"], ["feed", "ProductFeedHeader"],
            ])
        #expect(rows.filter { $0.floor == "feed" }.map(\.row) == Array(0..<14))
        #expect(adapter.diagnostics.isEmpty && adapter.page.diagnostics.isEmpty)
        #expect(adapter.page.next == "home-2.json")
    }

    /// `--dispatch ffi` performs the same selectors through their invokers: every row of the home page draws
    /// the same cell and has the same tappable items as with the typed calls.
    @Test func ffiDispatchDrawsAndCountsTappableItemsLikeTheTypedCalls() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let typed = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let ffi = try host.layout(page: Repo.path("Examples/home.json"), width: 375, dispatch: .ffi)
        #expect(ffi.rowCount == typed.rowCount)
        var drawn = 0
        var tappable = 0
        for r in 0..<typed.rowCount {
            let expected = RecordingCanvas()
            let got = RecordingCanvas()
            typed.drawCell(row: r, into: expected)
            ffi.drawCell(row: r, into: got)
            #expect(got.operations == expected.operations, "row \(r)")
            #expect(ffi.tappableItems(row: r) == typed.tappableItems(row: r), "row \(r)")
            drawn += expected.operations.count
            tappable += typed.tappableItems(row: r)
        }
        // Both modes drawing nothing, or finding nothing to tap, would also compare equal.
        #expect(drawn > typed.rowCount && tappable > 0)
        #expect(ffi.stats.cellCalls == ffi.rowCount)
    }

    @Test func rowAtOffsetFindsTheRowSpanningIt() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        for r in 0..<adapter.rowCount {
            let row = adapter.describe(row: r)
            // An item of the feed's waterfall shares its offsets with the other column's (CollectionPlacementTests).
            guard row.height > 0, row.column == nil else { continue }
            #expect(adapter.row(at: row.y) == r)
            #expect(adapter.row(at: row.y + row.height - 0.5) == r)
        }
        #expect(adapter.row(at: -10) == 0)
        #expect(adapter.row(at: adapter.totalHeight + 10) == adapter.rowCount - 1)
    }

    /// home.json's new arrivals list `sorts`: ProductFeed puts a sort strip above their cards, a sticky row of
    /// the plugin's own (not a title header). Scrolled past, it is pinned at the top of the screen, drawn with
    /// the current sort bold and in the price colour; the next floor pushes it up and it unpins once new
    /// arrivals have scrolled away, before the feed's sticky header takes the top.
    @Test func theNewArrivalsSortStripPinsWhileTheirCardsScroll() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let strip = try #require((0..<adapter.rowCount).first { adapter.describe(row: $0).type == "ProductSortStrip" })
        let info = adapter.describe(row: strip)
        #expect(info.floor == "new-arrivals" && info.row == 0 && info.isSticky && !info.isHeader)
        let cards = (0..<adapter.rowCount).filter { adapter.describe(row: $0).floor == "new-arrivals" }.dropFirst()
        let end = adapter.describe(row: cards.last!).y + 108
        func pinned(_ offset: Double) -> PinnedHeader? {
            adapter.pinnedHeader(in: Viewport(width: 375, height: 300, offset: offset))
        }
        #expect(pinned(info.y - 1) == nil)
        #expect(pinned(info.y + 200) == PinnedHeader(row: strip, floor: "new-arrivals", y: 0))
        #expect(pinned(end - 10)?.row == strip, "still pinned over the last card")
        #expect(pinned(end + 1)?.floor != "new-arrivals", "unpinned once its floor has scrolled away")

        let screen = TextRenderer.render(
            adapter, viewport: Viewport(width: 375, height: 300, offset: info.y + 200), columns: 75)
        let top = screen.split(separator: "\n").prefix(4).joined(separator: "\n")
        #expect(top.contains("综合 Best    销量 Sales    价格 Price") && top.contains("pinned"), "\(screen)")
        let draws = RecordingCanvas.record(width: 375, height: 36) { adapter.drawCell(row: strip, into: $0) }
        #expect(
            draws.contains {
                if case .text("综合 Best", _, _, _, FLOOR_TEXT_ACCENT | FLOOR_TEXT_BOLD) = $0 { true } else { false }
            })
        #expect(draws.contains { if case .text("价格 Price", _, _, _, FLOOR_TEXT_MUTED) = $0 { true } else { false } })
    }

    @Test func textPreviewShowsEachFloorAndKeepsCJKColumnsAligned() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let columns = 75
        let adapter = try host.layout(
            page: Repo.path("Examples/home.json"), width: TextRenderer.layoutWidth(columns: columns))
        let text = TextRenderer.render(adapter, columns: columns)
        for expected in [
            "双十一狂欢 Singles' Day", "● ○ ○ ○", "生鲜 Fresh", "限时秒杀 Flash sale", "无线蓝牙耳机 Pro",
            "¥199.00", "¥59.90", "品牌馆 Brands", "猜你喜欢 For you", "[1111]",
        ] {
            #expect(text.contains(expected), "text preview lacks \(expected)")
        }
        #expect(!text.contains("pinned"), "nothing is pinned on the whole page")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The page is as tall as its layout: one line per 12 points.
        #expect(lines.count - 1 == Int((adapter.totalHeight / TextRenderer.pointsPerLine).rounded()))
        for line in lines { #expect(DisplayWidth.of(line) <= columns, "too wide: \(line)") }
        // Every framed line (carousel, placeholders) closes in the last column, CJK or not.
        let framed = lines.filter { $0.hasPrefix("│") && $0.hasSuffix("│") }
        #expect(framed.count > 10)
        #expect(Set(framed.map { DisplayWidth.of($0) }) == [columns])
    }

    @Test func jsonOutputFollowsTheContract() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let result = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.count == 38 + 1, "home.json's rows and the footer: it names a next page")
        for row in rows {
            for key in ["section", "row", "floor", "type", "y", "height"] {
                #expect(row[key] != nil, "row lacks \(key)")
            }
        }
        #expect(rows.first?["type"] as? String == "FocusCarousel")
        #expect((output["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(output["events"] is [Any])
        #expect(output["width"] as? Int == 375)
    }
}
