import FloorCheck
import FloorLayout
import FloorSession
import Foundation
import Testing

/// Heights and margins are bounded (floor_abi.h, FLOOR_MAX_ROW_HEIGHT): a height calculator that answers
/// NaN, an infinity, a negative or a huge height is clamped and named in a diagnostic, `check` counts it,
/// and nothing downstream (text, scrolling, the isolation scan) costs more than the rows do.
struct HeightBoundsTests {
    /// The Tall plugin (heights.c) built with `height`, and a page of one Tall floor of `rows` rows.
    struct Setup {
        let folder: TemporaryFolder
        let plugins: String
        let page: String

        init(height: String, rows: Int = 3) throws {
            folder = try TemporaryFolder("heights")
            plugins = folder.file("plugins")
            try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
            try compileCPlugin("heights.c", to: plugins + "/libTallFloor.so", defines: ["HEIGHT=\(height)"])
            page = try folder.write("page.json", #"{"floors":[{"type":"Tall","id":"tower","rows":\#(rows)}]}"#)
        }

        func floorhost(_ extra: [String]) throws -> ProcessResult {
            try FloorHostTests.floorhost(
                ["--plugins", plugins, "--plugin-cache", folder.file("scan-cache.json"), page] + extra)
        }
    }

    static let outOfBounds: [(String, String, Double)] = [
        (#"__builtin_nan("")"#, "nan", 0), ("__builtin_inf()", "inf", Adapter.maxRowHeight),
        ("-__builtin_inf()", "-inf", 0),
        ("-5", "-5.0", 0), ("1e12", "1000000000000.0", Adapter.maxRowHeight), ("1e300", "1e+300", Adapter.maxRowHeight),
    ]

    @Test(arguments: outOfBounds)
    func aHeightOutOfBoundsIsClampedAndNamed(height: String, shown: String, clamped: Double) throws {
        let setup = try Setup(height: height)
        let host = try FloorHost(pluginFolder: setup.plugins)
        let adapter = try host.layout(page: setup.page, width: 375)
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).height } == [clamped, clamped, clamped])
        #expect(adapter.totalHeight == 3 * clamped)
        let diagnostic = try #require(adapter.diagnostics.first)
        #expect(adapter.diagnostics.count == 1, "one diagnostic per floor and row type: \(adapter.diagnostics)")
        #expect(
            diagnostic.message
                == "\(setup.page): floors[0] (floor 'tower'): plugin com.example.tall returned a height of \(shown) points for row type 'TallRow' (row 0 of the floor and 2 more of its rows); a row is 0 to 10000 points high (FLOOR_MAX_ROW_HEIGHT), so \(clamped == 0 ? "0" : "10000") is used (clamped)"
        )
        #expect(
            diagnostic.plugin == "com.example.tall" && diagnostic.path == "floors[0]" && diagnostic.file == setup.page)
        let check = PageCheck.run(file: setup.page, registry: host.registry)
        #expect(check.problems.map(\.message) == [diagnostic.message])
    }

    @Test func checkFailsOnAnOutOfBoundsHeight() throws {
        let setup = try Setup(height: #"__builtin_nan("")"#)
        let result = try FloorHostTests.floorhost([
            "check", "--plugins", setup.plugins, "--plugin-cache", setup.folder.file("scan-cache.json"), setup.page,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("returned a height of nan points for row type 'TallRow'"))
    }

    @Test func conformFailsAHeightAboveTheBound() throws {
        let setup = try Setup(height: "1e12")
        let result = try FloorHostTests.floorhost(["conform", setup.plugins + "/libTallFloor.so"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("heightForTallRow:width: returned 1000000000000.0 for row 0 ('TallRow')")
                && result.stdout.contains("heights must be 0 to 10000 points (FLOOR_MAX_ROW_HEIGHT)"),
            "\(result.stdout)")
    }

    @Test func aHeightWithinBoundsIsKeptAndNotReported() throws {
        let setup = try Setup(height: "10000")
        let adapter = try FloorHost(pluginFolder: setup.plugins).layout(page: setup.page, width: 375)
        #expect(adapter.totalHeight == 30_000 && adapter.diagnostics.isEmpty)
    }

    /// Text of a page of huge rows, `--scroll-to end` and `--scroll-to 1e300`, through the isolation scan
    /// and the supervised render: each finishes, and the plugin is not blamed for anything but its heights.
    @Test(arguments: [
        [], ["--viewport", "375x812", "--scroll-to", "end"], ["--format", "json", "--scroll-to", "1e300"],
    ])
    func aPageOfHugeRowsRendersAndScrolls(options: [String]) throws {
        let setup = try Setup(height: "1e300", rows: 20)
        let result = try setup.floorhost(options)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("skipped") && !result.stderr.contains("crashed"), "\(result.stderr)")
        #expect(
            result.stderr.contains("returned a height of 1e+300 points")
                || result.stdout.contains("returned a height of 1e+300 points"))
        if options.isEmpty {
            // 20 rows of 10,000 points at 12 points a line, then the line on next pages.
            #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).count - 1 == 16_667 + 1)
        }
        if options.contains("json") {
            let viewport = try #require(try jsonObject(result.stdout)["viewport"] as? [String: Any])
            #expect(number(viewport["offset"]) == 20 * Adapter.maxRowHeight - 812)
        }
    }

    /// Scrolling one screen at a time stops once per screen of short rows but once per tall row, not once
    /// per screen of it: 50 rows of 10,000 points would be 616 screens.
    @Test func scrollingStopsInProportionToRowsNotPoints() throws {
        let setup = try Setup(height: "10000", rows: 50)
        let host = try FloorHost(pluginFolder: setup.plugins)
        let session = PageSession(
            adapter: try host.layout(page: setup.page, width: 375), viewportHeight: 812,
            source: PageSource(registry: host.registry))
        session.scrollToEnd()
        #expect(session.viewport.offset == session.maxOffset)
        #expect(session.scrollStops <= 2 * 50 + 1, "\(session.scrollStops) stops")
        #expect(
            Set(session.events.compactMap { if case .willDisplay(let row, _, _, _) = $0 { row } else { nil } })
                == Set(0..<50))
        let far = PageSession(
            adapter: try host.layout(page: setup.page, width: 375), viewportHeight: 812,
            source: PageSource(registry: host.registry))
        far.scroll(toward: 1e300)
        #expect(far.viewport.offset == far.maxOffset && far.scrollStops <= 2 * 50 + 1)
    }

    /// Margins are rows: the SDK refuses one out of bounds with its path, and the page still renders.
    @Test(arguments: [
        (#"{"top":1e300}"#, "margin.top", "expected a number from 0 to 10000, found 1e300"),
        (#"{"bottom":-1}"#, "margin.bottom", "expected a number from 0 to 10000, found -1"),
        (#"{"top":10001}"#, "margin.top", "expected a number from 0 to 10000, found 10001"),
        (#"{"top":1e400}"#, "margin.top", "number 1e400 is out of range"),
    ])
    func aMarginOutOfBoundsIsRefusedWithItsPath(margin: String, path: String, reason: String) throws {
        let folder = try TemporaryFolder("margins")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["Title"]))
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"ok","title":"Fine"},{"type":"Title","id":"spaced","title":"Far","margin":\#(margin)}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        #expect(
            adapter.page.diagnostics.map { "\(page): " + pageMessage($0.message, page: page) } == [
                "\(page): floors[1].\(path) (floor 'spaced'): \(reason) (plugin com.floorkit.floor.title)"
            ])
        #expect(adapter.totalHeight < 200)
    }
}
