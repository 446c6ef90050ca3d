import FloorCheck
import FloorLayout
import FloorSession
import Foundation
import HostContract
import Testing

/// Heights and margins are bounded (floor_abi.h, FLOOR_MAX_ROW_HEIGHT). ABI 1.5's height rule: a height
/// calculator's answer that is no height (NaN, an infinity, a negative number) makes that row a placeholder
/// naming the plugin, the row type and the value, an error in every output and in `check`; a finite height
/// above the maximum is clamped and named. Nothing downstream (text, scrolling, the isolation scan) costs
/// more than the rows do.
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

    /// Answers that are no height, as C writes them, as the diagnostic names them, and as the placeholder does.
    static let noHeight: [(String, String, String)] = [
        (#"__builtin_nan("")"#, "NaN", "NaN"), ("__builtin_inf()", "inf", "inf"), ("-__builtin_inf()", "-inf", "-inf"),
        ("-1", "-1", "a negative height"), ("-5.5", "-5.5", "a negative height"),
    ]

    @Test(arguments: noHeight)
    func aRowWithNoHeightIsAPlaceholderThatSaysWhy(height: String, value: String, answer: String) throws {
        let setup = try Setup(height: height)
        let host = try FloorHost(pluginFolder: setup.plugins)
        for dispatch in [DispatchMode.typed, .ffi] {
            let adapter = try host.layout(page: setup.page, width: 375, dispatch: dispatch)
            let rows = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
            #expect(rows.map(\.height) == [36, 36, 36], "a placeholder's height, never the maximum or 0")
            let reason =
                "plugin com.example.tall's height calculator returned \(answer) for row type 'TallRow', so the row is shown as a placeholder"
            #expect(rows.allSatisfy { $0.placeholder == reason }, "\(rows)")
            let diagnostic = try #require(adapter.diagnostics.first)
            #expect(adapter.diagnostics.count == 1, "one diagnostic per floor and row type: \(adapter.diagnostics)")
            #expect(
                diagnostic.message
                    == "\(setup.page): floors[0] (floor 'tower'): plugin com.example.tall's height calculator returned \(value) for row type 'TallRow', so the row is shown as a placeholder (row 0 of the floor and 2 more of its rows); a height is a finite number of points, 0 or more"
            )
            #expect(diagnostic.level == .error && diagnostic.consequence == .placeholder)
            #expect(
                diagnostic.plugin == "com.example.tall" && diagnostic.path == "floors[0]"
                    && diagnostic.file == setup.page)
            // The host draws the row: the plugin's cell is never called, and nothing in it can be tapped.
            let before = adapter.stats.cellCalls
            let canvas = RecordingCanvas()
            adapter.drawCell(row: 0, into: canvas)
            #expect(adapter.stats.cellCalls == before)
            let texts = canvas.operations.compactMap { op -> String? in
                if case .text(let text, _, _, _, _) = op { return text } else { return nil }
            }
            #expect(texts == ["! " + reason])
            #expect(adapter.tappableItems(row: 0) == 0)
            adapter.setWidth(200)
            #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).height } == [36, 36, 36], "at every width")
            adapter.setWidth(375)
            let check = PageCheck.run(file: setup.page, registry: host.registry)
            #expect(check.problems.map(\.message) == [diagnostic.message])
        }
    }

    @Test func everyOutputShowsTheRowAsAPlaceholder() throws {
        let setup = try Setup(height: "__builtin_inf()", rows: 1)
        let reason =
            "plugin com.example.tall's height calculator returned inf for row type 'TallRow', so the row is shown as a placeholder"
        let json = try setup.floorhost(["--format", "json"])
        let output = try jsonObject(json.stdout)
        let row = try #require((output["rows"] as? [[String: Any]])?.first)
        #expect(row["placeholder"] as? String == reason && number(row["height"]) == 36, "\(json.stdout)")
        let said = try #require(output["diagnostics"] as? [[String: Any]])
        #expect(
            said.contains {
                $0["level"] as? String == "error" && $0["consequence"] as? String == "shown as a placeholder"
            }, "\(said)")
        let html = try setup.floorhost(["--format", "html"])
        #expect(html.stdout.contains(#"class="row placeholder""#), "\(html.stdout)")
        #expect(html.stdout.contains("returned inf for row type"))
        let text = try setup.floorhost([])
        #expect(text.stdout.contains("! plugin com.example.tall's height"), "\(text.stdout)")
    }

    @Test func clampedHeightsAboveTheBoundAreNamed() throws {
        for (height, shown) in [("1e12", "1000000000000.0"), ("1e300", "1e+300")] {
            let setup = try Setup(height: height)
            let host = try FloorHost(pluginFolder: setup.plugins)
            let adapter = try host.layout(page: setup.page, width: 375)
            #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).height } == [10_000, 10_000, 10_000])
            #expect((0..<adapter.rowCount).allSatisfy { adapter.describe(row: $0).placeholder == nil })
            let diagnostic = try #require(adapter.diagnostics.first)
            #expect(adapter.diagnostics.count == 1)
            #expect(
                diagnostic.message
                    == "\(setup.page): floors[0] (floor 'tower'): plugin com.example.tall returned a height of \(shown) points for row type 'TallRow' (row 0 of the floor and 2 more of its rows); a row is 0 to 10000 points high (FLOOR_MAX_ROW_HEIGHT), so 10000 is used (clamped)"
            )
            #expect(diagnostic.level == .error && diagnostic.consequence == .clamped)
        }
    }

    @Test func checkFailsOnARowWithNoHeight() throws {
        let setup = try Setup(height: #"__builtin_nan("")"#)
        let result = try FloorHostTests.floorhost([
            "check", "--plugins", setup.plugins, "--plugin-cache", setup.folder.file("scan-cache.json"), setup.page,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains(
                "plugin com.example.tall's height calculator returned NaN for row type 'TallRow', so the row is shown as a placeholder"
            ), "\(result.stdout)")
    }

    @Test(arguments: [
        ("__builtin_inf()", "returned inf for row 0 ('TallRow')", "floorhost shows this row as a placeholder"),
        ("-1", "returned -1.0 for row 0 ('TallRow')", "floorhost shows this row as a placeholder"),
        ("1e12", "returned 1000000000000.0 for row 0 ('TallRow')", "floorhost clamps it to that and reports it"),
    ])
    func conformNamesWhatTheHostDoesWithTheHeight(height: String, answer: String, consequence: String) throws {
        let setup = try Setup(height: height)
        let result = try FloorHostTests.floorhost(["conform", setup.plugins + "/libTallFloor.so"])
        #expect(result.status == 1)
        let failed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  FAIL  heights ") }
        #expect(failed.count == 1, "\(result.stdout)")
        #expect(
            failed.first?.contains(answer) == true && failed.first?.contains(consequence) == true, "\(result.stdout)")
    }

    /// An item of a collection floor (tiles.c; JSON's 1e999 is C's inf) is a placeholder in its column.
    @Test func anItemWithNoHeightIsAPlaceholderInItsColumn() throws {
        let folder = try TemporaryFolder("heights")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so")
        let page = try folder.write(
            "page.json", #"{"floors":[{"type":"Tiles","id":"w","layout":"grid","heights":[100,1e999,60]}]}"#)
        let adapter = try FloorHost(pluginFolder: plugins).layout(page: page, width: 375)
        let rows = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
        #expect(rows.map(\.height) == [100, 36, 60])
        #expect(rows.map(\.column) == [0, 1, 0], "placed in its column like any item")
        #expect(rows[1].placeholder?.contains("returned inf for row type 'Tile'") == true)
        #expect(adapter.diagnostics.map(\.consequence) == [.placeholder], "\(adapter.diagnostics)")
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
