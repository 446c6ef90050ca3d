import FloorLayout
import FloorSession
import Foundation
import Testing

/// Load-more as ARCHITECTURE.md specifies it, one test per bug users of list frameworks report. Product cards are
/// 108 points tall, so a 812-point viewport shows about 7.5 of them.
struct LoadMoreTests {
    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    @Test func firesOnceForOneThresholdWhileTheLoadIsInFlight() throws {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<20), Self.ids(20..<40)])
        let (session, _) = try chain.session(immediate: false)
        #expect(session.requests.isEmpty)
        // Creep past the threshold row by row; the load stays in flight the whole time.
        for y in stride(from: 0.0, through: session.maxOffset, by: 20) { session.scroll(to: y) }
        #expect(session.requests == [chain.files[1]])
        session.deliverLoad()
        #expect(session.completions == [chain.files[1]])
        #expect(session.adapter.contentRowCount == 40 && session.adapter.rowCount == 41, "40 cards and the footer")
    }

    @Test func doesNotLoopWhileTheSameRowsStayInView() throws {
        // Page 1 adds nothing and links back to itself: a framework that re-fires on every layout pass loops.
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<10), []])
        try folder.write("page-1.json", #"{"floors":[],"next":"page-1.json"}"#)
        let (session, _) = try chain.session()
        for _ in 0..<20 { session.scroll(to: session.maxOffset) }
        #expect(session.requests == [chain.files[1]])
        #expect(session.loadMore.state == .stopped(.loop(page: chain.files[1])))
    }

    @Test func aShortPageKeepsLoadingUntilTheViewportIsFilled() throws {
        // Three cards (324 points) a page: the screen (812) fills on the third page, whose last card is
        // below the screen, so with distance 1 nothing but the empty space asked for the loads.
        let chain = try PageChain(
            in: TemporaryFolder(), items: [Self.ids(0..<3), Self.ids(3..<6), Self.ids(6..<9), Self.ids(9..<12)])
        let (session, _) = try chain.session(distance: 1)
        #expect(session.requests == Array(chain.files[1...2]))
        #expect(session.adapter.totalHeight == 972 + 44, "and the footer")
        // The footer was displayed under each short page (rows 3 and 6), then the next page's first card
        // took its row: a new row, displayed in its turn.
        #expect(session.displayedRows == [0, 1, 2, 3, 3, 4, 5, 6, 6, 7])
        #expect(session.loadMore.state == .idle, "more pages remain for when the user scrolls")
    }

    @Test func anEmptyFirstPageLoadsUntilPagesRunOut() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [[], Self.ids(0..<1), Self.ids(1..<2)])
        try folder.write("page-0.json", #"{"floors":[],"next":"page-1.json"}"#)
        let (session, _) = try chain.session()
        #expect(session.requests == [chain.files[1], chain.files[2]])
        #expect(session.loadMore.state == .exhausted)
        #expect(session.feedProductIDs == ["p0", "p1"])
    }

    @Test func aJumpPastTheThresholdRowStillLoads() throws {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<40), Self.ids(40..<50)])
        // The last screen always shows the last 8 rows, so a distance of 10 puts the threshold row above it.
        let (session, _) = try chain.session(distance: 10)
        let rows = session.adapter.rowCount
        session.scroll(to: session.maxOffset)
        #expect(!session.displayedRows.contains(rows - 10), "the threshold row itself was never displayed")
        #expect(session.requests == [chain.files[1]])
    }

    @Test func doesNotFireAgainWithTheStaleCountWhileAPageIsAppended() throws {
        let chain = try PageChain(
            in: TemporaryFolder(), items: [Self.ids(0..<20), Self.ids(20..<40), Self.ids(40..<60)])
        let (session, _) = try chain.session(immediate: false)
        session.scroll(to: session.maxOffset)
        #expect(session.requests == [chain.files[1]])
        // Still in flight: the stale count (20 rows) would say "load" at every step.
        session.scroll(to: session.maxOffset - 50)
        session.scroll(to: session.maxOffset)
        #expect(session.requests == [chain.files[1]])
        session.deliverLoad()
        // With the new count, the rows on screen are far from the end: no request until scrolling on.
        #expect(session.requests == [chain.files[1]])
        session.scroll(to: session.maxOffset)
        #expect(session.requests == [chain.files[1], chain.files[2]])
    }

    @Test func duplicateItemsAfterPagingAreDroppedAndReported() throws {
        let chain = try PageChain(
            in: TemporaryFolder(), items: [Self.ids(0..<10), ["p8", "p9", "p10", "p11"], ["p11", "p12"]])
        let (session, host) = try chain.session()
        session.scrollToEnd()
        #expect(session.feedProductIDs == Self.ids(0..<13))
        let messages = host.diagnostics(for: session.adapter).map(\.message)
        #expect(
            messages.contains(
                "\(chain.files[1]): floors[0].items[0] (floor 'feed'): duplicate item id 'p8' dropped (left out)"))
        #expect(
            messages.contains(
                "\(chain.files[1]): floors[0].items[1] (floor 'feed'): duplicate item id 'p9' dropped (left out)"))
        #expect(
            messages.contains(
                "\(chain.files[2]): floors[0].items[0] (floor 'feed'): duplicate item id 'p11' dropped (left out)"))
        #expect(messages.filter { $0.contains("dropped") }.count == 3)
    }

    @Test func endOfDataStopsTriggers() throws {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<10), Self.ids(10..<20)])
        let (session, _) = try chain.session()
        session.scrollToEnd()
        #expect(session.loadMore.state == .exhausted)
        let events = session.events.count
        for _ in 0..<5 {
            session.scroll(to: 0)
            session.scroll(to: session.maxOffset)
        }
        #expect(session.requests == [chain.files[1]])
        #expect(session.events[events...].allSatisfy { if case .willDisplay = $0 { true } else { false } })
    }

    @Test func aFailedLoadKeepsEveryRowAndARetryWorks() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<10), Self.ids(10..<20)])
        let good = try String(contentsOfFile: chain.files[1], encoding: .utf8)
        try FileManager.default.removeItem(atPath: chain.files[1])
        let (session, _) = try chain.session()
        session.scroll(to: session.maxOffset)
        let before = (0..<session.adapter.rowCount).map(session.adapter.describe(row:))
        #expect(session.failures == ["\(chain.files[1]): no such page file"])
        #expect(
            session.loadMore.state == .failed(location: chain.files[1], reason: "\(chain.files[1]): no such page file"))
        // Scrolling does not retry by itself.
        session.scroll(to: 0)
        session.scroll(to: session.maxOffset)
        #expect(session.requests.count == 1)
        #expect((0..<session.adapter.rowCount).map(session.adapter.describe(row:)) == before)

        // A malformed page fails the same way, with its line and column.
        try folder.write("page-1.json", #"{"floors":[{"type":"ProductFeed","id":"feed","items":[}]}"#)
        session.retry()
        #expect(session.failures.last?.hasPrefix("\(chain.files[1]):1:") == true)
        #expect((0..<session.adapter.rowCount).map(session.adapter.describe(row:)) == before)

        try good.write(toFile: chain.files[1], atomically: true, encoding: .utf8)
        session.retry()
        #expect(session.completions == [chain.files[1]])
        #expect(session.feedProductIDs == Self.ids(0..<20))
    }

    @Test func retryOptionRetriesAFailedLoad() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<10), Self.ids(10..<20)])
        try FileManager.default.removeItem(atPath: chain.files[1])
        let plugins = try folder.installShippedPlugins()
        let result = try floorhost([
            "--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end", "--retry", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try #require(try jsonObject(result.stdout)["events"] as? [[String: Any]])
        let loads = events.filter { $0["kind"] as? String == "loadMore" }
        #expect(
            loads.map { $0["phase"] as? String } == [
                "requested", "failed", "requested", "failed", "requested", "failed",
            ])
        #expect(loads.allSatisfy { $0["page"] as? String == chain.files[1] })
        let rows = try #require(try jsonObject(result.stdout)["rows"] as? [[String: Any]])
        #expect(rows.count == 11, "10 cards and the footer, which says the load failed")
        #expect(rows.last?["type"] as? String == "LoadStateFooter")
    }

    @Test func theExampleChainLoadsThroughTheCLI() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let result = try floorhost([
            "--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json", "--scroll-to", "end",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let loads = try #require(output["events"] as? [[String: Any]]).filter { $0["kind"] as? String == "loadMore" }
        #expect(loads.map { $0["phase"] as? String } == ["requested", "completed", "requested", "completed"])
        #expect(
            loads.map { ($0["page"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == [
                "home-2.json", "home-2.json", "home-3.json", "home-3.json",
            ])
        #expect(loads.map { $0["rowsAdded"] as? Int } == [nil, 12, nil, 11])
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.count == 38 + 12 + 11 + 1, "every page's rows and the footer")
        #expect(rows[rows.count - 2]["floor"] as? String == "end")
        #expect(rows.last?["floor"] as? String == "floorhost.footer")
        #expect(output["next"] is NSNull)
        let viewport = try #require(output["viewport"] as? [String: Any])
        let offset = try #require(number(viewport["offset"]))
        let height = try #require(number(output["height"]))
        #expect(offset + 812 == height, "scrolled to the very end")
    }
}
