import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import HostContract
import Testing

/// Paged rows, carousels (docs/ABI.md, "Paged rows"): Focus pages through its banners, one a page; the
/// session holds the page each carousel shows (kept across next pages and reloads), the outputs say which,
/// `--tap S:R:I` taps banner I, an impression counts per banner shown, and a pages answer the host cannot
/// use is the plugin's error.
struct CarouselTests {
    let folder: TemporaryFolder
    let plugins: String
    let home: String

    init() throws {
        folder = try TemporaryFolder("carousel")
        plugins = try folder.installShippedPlugins()
        for file in ["home.json", "home-2.json", "home-3.json"] {
            try folder.write(file, try String(contentsOfFile: Repo.path("Examples/" + file), encoding: .utf8))
        }
        home = folder.file("home.json")
    }

    func open(
        _ page: String? = nil, plugins: String? = nil, impressions: ImpressionRule? = nil,
        clock: ImpressionClock = .simulated(step: 1000)
    ) throws -> PageSession {
        let host = try FloorHost(pluginFolder: plugins ?? self.plugins)
        let page = page ?? home
        let adapter = try host.layout(page: page, root: PageRoot(around: page), width: 375)
        return PageSession(
            adapter: adapter, viewportHeight: 812,
            source: PageSource(registry: host.registry, root: PageRoot(around: page)), impressions: impressions,
            impressionClock: clock)
    }

    /// The json output's tappable counts, asked of every row in one loop, are each row's own answer (-1 for a
    /// row type with no tappable selector), in both dispatch modes.
    @Test func tappableCountsAreEachRowsAnswer() throws {
        let host = try FloorHost(pluginFolder: plugins)
        for dispatch in [DispatchMode.typed, .ffi] {
            let adapter = try host.layout(page: home, root: PageRoot(around: home), width: 375, dispatch: dispatch)
            let types = adapter.registry.rowTypes
            let each = (0..<adapter.rowCount).map { r in
                types[Int(adapter.rows[r].type)].tappable != nil ? Int32(adapter.tappableItems(row: r)) : -1
            }
            #expect(each.contains { $0 > 0 } && each.contains(-1), "the page has rows of both kinds")
            #expect(adapter.tappableCounts() == each)
        }
    }

    /// Banner i of 4 on page i: each page draws its banner, the dots and "i/4", and reports its banner's
    /// frame; turning wraps around at both ends; a page past the last shows the last.
    @Test func focusPagesThroughItsBanners() throws {
        let session = try open()
        let adapter = session.adapter
        #expect(session.pageCount(ofRow: 0) == 4 && session.page(ofRow: 0) == 0)
        for banner in 0..<4 {
            #expect(session.showPage(banner, ofRow: 0) == banner)
            let canvas = RecordingCanvas()
            adapter.drawCell(row: 0, into: canvas)
            let texts = canvas.operations.compactMap { op -> String? in
                if case .text(let text, _, _, _, _) = op { return text } else { return nil }
            }
            #expect(texts.contains("\(banner + 1)/4"), "\(texts)")
            #expect(texts.contains((0..<4).map { $0 == banner ? "●" : "○" }.joined(separator: " ")), "\(texts)")
            #expect(adapter.reportedFrames(row: 0).map(\.item) == [banner])
        }
        #expect(session.turnPage(by: 1, ofRow: 0) == 0, "after the last, the first")
        #expect(session.turnPage(by: -1, ofRow: 0) == 3, "before the first, the last")
        #expect(session.showPage(99, ofRow: 0) == 3)
        let mid = try #require(adapter.rowIndex(section: 4, row: 1))
        #expect(adapter.describe(row: mid).type == "FocusCarousel" && session.pageCount(ofRow: mid) == 1)
        #expect(session.showPage(2, ofRow: mid) == 0, "a carousel of one banner does not page")
    }

    /// The page shown is the session's: a next page that renumbers rows and a reload that changes a banner
    /// keep it.
    @Test func thePageShownIsKeptAcrossNextPagesAndReloads() throws {
        let session = try open()
        session.showPage(2, ofRow: 0)
        session.scrollToEnd()
        #expect(session.adapter.pages.count == 3, "home.json, home-2.json and home-3.json")
        #expect(session.page(ofRow: 0) == 2)
        let text = try String(contentsOfFile: home, encoding: .utf8)
        try folder.write("home.json", text.replacingOccurrences(of: "app://activity/brand", with: "app://brand/new"))
        let diff = try session.reload()
        #expect(!diff.isEmpty)
        #expect(session.page(ofRow: 0) == 2)
        #expect((try? session.tap(section: 0, row: 0, item: 2).get())?.url == "app://brand/new")
    }

    /// `--tap S:R:I` taps banner I (the session shows its page first); json says `pages` and `page` on the
    /// row, text shows page 1 of 4.
    @Test func theCommandLineTapsABannerAndSaysWhichPageIsShown() throws {
        for (item, id) in [(0, "b1"), (2, "b3"), (3, "b4")] {
            let tapped = try floorhost(["--plugins", plugins, home, "--tap", "0:0:\(item)"])
            #expect(tapped.status == 0, "\(tapped.stderr)")
            let action = try jsonObject(tapped.stdout)
            #expect((action["params"] as? [String: String])?["bannerId"] == id, "\(tapped.stdout)")
            #expect(action["item"] as? Int == item)
        }
        let none = try floorhost(["--plugins", plugins, home, "--tap", "0:0:4"])
        #expect(none.status == 1 && none.stderr.contains("has 4 tappable items; there is no item 4"), "\(none.stderr)")
        let json = try jsonObject(try floorhost(["--plugins", plugins, home, "--format", "json"]).stdout)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows[0]["pages"] as? Int == 4 && rows[0]["page"] as? Int == 0 && rows[0]["tappable"] as? Int == 4)
        #expect(rows.filter { $0["pages"] != nil }.count == 1, "the one-banner carousel is not paged")
        let text = try floorhost(["--plugins", plugins, home])
        #expect(text.stdout.split(separator: "\n").contains { $0.contains("● ○ ○ ○") && $0.hasSuffix("1/4") })
    }

    /// An impression is counted per banner shown: banner 0 on the first screen; banner 1 once the carousel
    /// turns to it and stays; banners 2 and 3, never shown, never.
    @Test func anImpressionCountsPerBannerShown() throws {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let session = try open(
            impressions: ImpressionRule(fraction: 0.5, milliseconds: 500), clock: .source { clock.now })
        func banners() -> [String?] {
            session.events.compactMap { event -> String?? in
                guard case .impression(let seen) = event, seen.floor == "focus" else { return nil }
                return .some(seen.itemID)
            }
        }
        session.observeImpressions()
        clock.now = 600
        session.observeImpressions()
        #expect(banners() == ["b1"])
        session.showPage(1, ofRow: 0)
        clock.now = 900
        session.observeImpressions()
        #expect(banners() == ["b1"], "banner 1 has been shown 300 ms")
        clock.now = 1200
        session.observeImpressions()
        #expect(banners() == ["b1", "b2"])
        session.showPage(3, ofRow: 0)
        clock.now = 1300
        session.showPage(0, ofRow: 0)
        clock.now = 5000
        session.observeImpressions()
        #expect(banners() == ["b1", "b2"], "banner 3 was shown 100 ms; banner 0 counted once already")
    }

    /// Tapper's "pages:N": 3 pages pages the row; 65, past FLOOR_PAGES_MAX, is the plugin's error, named
    /// with the value, and the row is not paged; a pages selector with the wrong signature is refused.
    @Test func pagesAnswersTheHostCannotUseAreThePluginsError() throws {
        let own = try folder.installShippedPlugins([], into: "c-plugins")
        try compileCPlugin("tapper.c", to: own + "/libTapper.so")
        let page = try folder.write(
            "tapper.json",
            #"{"floors":[{"type":"Tapper","id":"a","text":"pages:3"},{"type":"Tapper","id":"b","text":"pages:65"}]}"#)
        let session = try open(page, plugins: own)
        #expect(session.pageCount(ofRow: 0) == 3)
        #expect(session.pageCount(ofRow: 1) == 1)
        #expect(session.showPage(2, ofRow: 1) == 0)
        let errors = session.adapter.diagnostics.filter { $0.level == .error }.map(\.message)
        #expect(
            errors.contains {
                $0.contains("plugin com.floorkit.test.tapper's pages selector pagesOfTapperRow: returned 65")
                    && $0.contains("FLOOR_PAGES_MAX (64)")
            }, "\(errors)")
        let result = try floorhost(["--plugins", own, page, "--format", "json"])
        let rows = try #require(try jsonObject(result.stdout)["rows"] as? [[String: Any]])
        #expect(rows[0]["pages"] as? Int == 3 && rows[1]["pages"] == nil)

        try compileCPlugin("tapper.c", to: own + "/libTapper.so", defines: ["BAD_PAGES_SIGNATURE"])
        let refused = try floorhost([
            "--plugins", own, page, "--format", "json", "--plugin-cache", folder.file("c.json"),
        ])
        #expect(
            refused.stdout.contains(
                "pages selector of row type 'TapperRow' 'pagesOfTapperRow:' has signature Q(pp); expected Q(ppQ)"),
            "\(refused.stdout)\(refused.stderr)")
    }
}
