import FloorLayout
import FloorSession
import Foundation
import Testing

/// The host-drawn load-state footer (Layout/Footer.swift): where it is, what it says in each state, how it
/// stays out of load-more's row count, and a tap on it retrying a failed load. Product cards are 108 points.
struct LoadStateFooterTests {
    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    @Test func aFeedEndsInTheFooterThroughEveryStateAndAPageWithoutNextHasNone() throws {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<20), Self.ids(20..<30)])
        let (session, _) = try chain.session(immediate: false)
        let adapter = session.adapter
        #expect(adapter.rowCount == 21 && adapter.contentRowCount == 20 && adapter.footerRow == 20)
        let footer = adapter.describe(row: 20)
        #expect(footer.floor == "floorhost.footer" && footer.type == "LoadStateFooter" && footer.height == 44)
        #expect(adapter.footer?.state == .more(page: chain.files[1]))
        #expect(adapter.footer?.text == "pull up to load more")
        session.scroll(to: session.maxOffset)
        #expect(adapter.footer?.text == "loading…")
        session.deliverLoad()
        // The next page's cards land before the footer, which is still the last row and now says the end.
        #expect(adapter.rowCount == 31 && adapter.footerRow == 30)
        #expect(adapter.describe(row: 29).type == "ProductCard")
        #expect(adapter.footer?.state == .end && adapter.footer?.text == "no more")
        #expect(adapter.totalHeight == 30 * 108 + 44)

        let single = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<5)])
        let (alone, _) = try single.session()
        #expect(alone.adapter.footer == nil && alone.adapter.footerRow == nil)
        #expect(alone.adapter.rowCount == 5)
    }

    @Test func loadMoreCountsFloorRowsNotTheFooter() throws {
        // 20 cards: with distance 4 row 16 is the first that triggers, as before the footer existed.
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<20), Self.ids(20..<30)])
        let (session, _) = try chain.session(immediate: false)
        session.scroll(to: 16 * 108 - 812)  // row 15's bottom at the screen's bottom edge: row 16 not shown
        #expect(session.requests.isEmpty)
        session.scroll(to: 16 * 108 - 812 + 1)  // a point of row 16
        #expect(session.requests == [chain.files[1]])
        #expect(session.events.contains { if case .loadMoreRequested(16, _) = $0 { true } else { false } })
    }

    @Test func aFailedLoadSaysWhyAndATapOnTheFooterRetries() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<10), Self.ids(10..<15)])
        try FileManager.default.removeItem(atPath: chain.files[1])
        let (session, _) = try chain.session()
        session.scroll(to: session.maxOffset)
        let adapter = session.adapter
        guard case .failed(let page, let reason)? = adapter.footer?.state else {
            Issue.record("the footer should say the load failed: \(String(describing: adapter.footer?.state))")
            return
        }
        #expect(page == chain.files[1] && reason.contains("no such page file"))
        #expect(adapter.footer!.text == "failed: \(reason) (tap to retry)")
        let footerRow = try #require(adapter.footerRow)
        #expect(adapter.tappableItems(row: footerRow) == 1)
        #expect(adapter.tappableItems(row: 0) == 1, "a card keeps its own item")

        // The page appears; a tap on the footer (section 1, its only row) loads it.
        try folder.write(
            "page-1.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[{"id":"p10","title":"Product p10","price":"¥1.00","img":"p/p10.jpg"}]}]}"#
        )
        let tap = session.tap(section: 1, row: 0)
        guard case .success(let action) = tap else {
            Issue.record("tap: \(tap)")
            return
        }
        #expect(action.url == LoadStateFooter.retryURL && action.params == [.init(key: "page", value: chain.files[1])])
        #expect(session.completions == [chain.files[1]])
        #expect(session.feedProductIDs.count == 10, "p10 has no jump, so it has no action")
        #expect(adapter.contentRowCount == 11 && adapter.footer?.state == .end)
        #expect(adapter.tappableItems(row: adapter.footerRow!) == 0, "nothing to retry once loaded")
        #expect(
            session.tap(section: 1, row: 0)
                == .failure(
                    NoAction(
                        description:
                            "row 1:0 (LoadStateFooter of floor 'floorhost.footer') has 0 tappable items; there is no item 0"
                    )))
    }

    // The footer in each output of the batch CLI (text, json, html), on a real process.

    @Test func textJSONAndHTMLDrawTheFooter() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<12), Self.ids(12..<14)])
        let plugins = try folder.installShippedPlugins()
        let text = try floorhost(["--plugins", plugins, chain.files[0], "--scroll-to", "end", "--color", "never"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("no more"))
        let whole = try floorhost(["--plugins", plugins, chain.files[0], "--color", "never"])
        #expect(whole.stdout.contains("pull up to load more"))

        let json = try jsonObject(
            try floorhost(["--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end"]).stdout)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == 15)
        #expect(
            rows.last?["type"] as? String == "LoadStateFooter" && rows.last?["floor"] as? String == "floorhost.footer")
        let footer = try #require(json["footer"] as? [String: Any])
        #expect(
            footer["state"] as? String == "end" && footer["text"] as? String == "no more" && number(footer["row"]) == 14
        )
        let cells = try #require(json["cells"] as? [[String: Any]])
        #expect(cells.contains { number($0["row"]) == 14 && "\($0["draws"] ?? "")".contains("no more") })

        try FileManager.default.removeItem(atPath: chain.files[1])
        let failed = try jsonObject(
            try floorhost(["--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end"]).stdout)
        let failedFooter = try #require(failed["footer"] as? [String: Any])
        #expect(failedFooter["state"] as? String == "failed")
        #expect((failedFooter["text"] as? String)?.hasSuffix("(tap to retry)") == true)

        let html = try floorhost(["--plugins", plugins, chain.files[0], "--format", "html", "--scroll-to", "end"])
        #expect(
            html.stdout.contains(#"data-floor="floorhost.footer""#)
                && html.stdout.contains(#"data-type="LoadStateFooter""#))
        #expect(html.stdout.contains("(tap to retry)"))
    }
}
