import FloorSession
import Foundation
import Testing

/// Prefetch distance in rows, in screens, and both (whichever is reached first). 60 cards of 108 points:
/// 6480 points of content under an 812-point screen, then the footer.
struct PrefetchTests {
    static let chainItems = [(0..<60).map { "p\($0)" }, ["p60"]]

    func open(_ prefetch: Prefetch) throws -> (PageSession, PageChain) {
        let chain = try PageChain(in: TemporaryFolder(), items: Self.chainItems)
        let host = try FloorHost(pluginFolder: try chain.folder.installShippedPlugins())
        let adapter = try host.layout(page: chain.files[0], width: 375)
        return (
            PageSession(
                adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
                deliversLoadsImmediately: false, prefetch: prefetch), chain
        )
    }

    /// The first offset, in steps of one point from `from`, at which a load was requested.
    func firstLoadingOffset(_ session: PageSession, from: Double, to: Double) -> Double? {
        var y = from
        while y <= to {
            session.scroll(to: y)
            if !session.requests.isEmpty { return y }
            y += 1
        }
        return nil
    }

    @Test func rowsAlone() throws {
        // Row 56 (top 6048) is the first of the last 4: shown once the screen's bottom passes 6048.
        let (session, _) = try open(Prefetch(rows: 4)!)
        #expect(firstLoadingOffset(session, from: 5200, to: 5700) == Double(6048 - 812 + 1))
    }

    @Test func screensAlone() throws {
        // 2 screens (1624 points) of content left below the screen's bottom: 6480 - 1624 - 812 = 4044.
        let (session, _) = try open(Prefetch(screens: 2)!)
        #expect(firstLoadingOffset(session, from: 3900, to: 4200) == 4044)
        #expect(
            session.events.contains { if case .loadMoreRequested(44, _) = $0 { true } else { false } },
            "the row rule alone would have waited for row 56")
        let (half, _) = try open(Prefetch(screens: 0.5)!)
        #expect(firstLoadingOffset(half, from: 5200, to: 5300) == Double(6480 - 406 - 812))
    }

    @Test func bothLoadAtWhicheverComesFirst() throws {
        // Screens first: 2 screens is reached at 4044, the last 4 rows only at 5237.
        let (screensFirst, _) = try open(Prefetch(rows: 4, screens: 2)!)
        #expect(firstLoadingOffset(screensFirst, from: 3900, to: 5700) == 4044)
        // Rows first: the last 20 rows start at row 40 (top 4320), shown from 3509; half a screen only at 5262.
        let (rowsFirst, _) = try open(Prefetch(rows: 20, screens: 0.5)!)
        #expect(firstLoadingOffset(rowsFirst, from: 3400, to: 5700) == Double(4320 - 812 + 1))
    }

    @Test func aScreenRuleStillLoadsOnlyOncePerPage() throws {
        let (session, chain) = try open(Prefetch(screens: 2)!)
        for y in stride(from: 4000.0, through: session.maxOffset, by: 50) { session.scroll(to: y) }
        #expect(session.requests == [chain.files[1]])
        session.deliverLoad()
        session.scroll(to: session.maxOffset)
        #expect(session.requests == [chain.files[1]] && session.loadMore.state == .exhausted)
    }

    @Test func theOptionsForm() throws {
        #expect(try Prefetch.Distance.parse("2screens") == .screens(2))
        #expect(try Prefetch.Distance.parse("1.5screens") == .screens(1.5))
        #expect(try Prefetch.Distance.parse("4rows") == .rows(4))
        #expect(try Prefetch.Distance.parse("1row") == .rows(1))
        for bad in ["2", "0rows", "1.5rows", "-1screens", "0screens", "screens", "nanscreens"] {
            #expect(throws: PrefetchFormError.self, "\(bad)") { try Prefetch.Distance.parse(bad) }
        }
        #expect(Prefetch([.screens(2), .rows(6)]) == Prefetch(rows: 6, screens: 2))
        #expect(Prefetch([]) == nil)
    }

    @Test func theCLIAcceptsScreensAndRows() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: Self.chainItems)
        let plugins = try folder.installShippedPlugins()
        func requestRow(_ extra: [String]) throws -> Double? {
            let json = try jsonObject(
                try floorhost(
                    ["--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "5000"] + extra
                ).stdout)
            let events = try #require(json["events"] as? [[String: Any]])
            return events.first { $0["kind"] as? String == "loadMore" && $0["phase"] as? String == "requested" }.flatMap
            { number($0["row"]) }
        }
        #expect(try requestRow([]) == nil, "at 5000 the last 4 rows are not on screen yet")
        #expect(try requestRow(["--prefetch", "2screens"]) != nil)
        #expect(try requestRow(["--prefetch", "2screens", "--load-more-distance", "4"]) != nil)
        let bad = try floorhost(["--plugins", plugins, chain.files[0], "--prefetch", "2"])
        #expect(bad.status == 64 && bad.stderr.contains("--prefetch 2screens"))
    }
}
