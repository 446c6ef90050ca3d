import FloorLayout
import FloorSession
import Foundation
import Testing

/// Impression events (Layout/Impressions.swift) on an injected clock: thresholds on both sides of P and D,
/// once per item, what each event names. Product cards are 108 points, the card's frame (docs/ABI.md, "Item
/// frames") the 96 above its rule; an 812-point screen at offset 0 shows cards 0 to 6 whole and 56 points of
/// card 7 (51.9 % of the row, 58.3 % of its frame, which is what counts).
struct ImpressionTests {
    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        var now = 0.0
        var source: ImpressionClock { .source { [unowned self] in self.now } }
    }

    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    func open(_ rule: ImpressionRule, clock: ManualClock, items: Int = 30) throws -> (PageSession, FloorHost) {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<items)])
        let host = try FloorHost(pluginFolder: try chain.folder.installShippedPlugins())
        let adapter = try host.layout(page: chain.files[0], width: 375)
        return (
            PageSession(
                adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
                impressions: rule, impressionClock: clock.source), host
        )
    }

    @Test func durationOnBothSidesOfD() throws {
        let clock = ManualClock()
        let (session, _) = try open(ImpressionRule(fraction: 0.5, milliseconds: 500), clock: clock)
        clock.now = 499
        session.observeImpressions()
        #expect(session.impressionRows.isEmpty, "499 ms is not 500")
        clock.now = 500
        session.observeImpressions()
        #expect(session.impressionRows == Array(0...7))
    }

    @Test func fractionOnBothSidesOfP() throws {
        for (percent, expected) in [(58.0, Array(0...7)), (59.0, Array(0...6))] {
            let clock = ManualClock()
            let (session, _) = try open(ImpressionRule(fraction: percent / 100, milliseconds: 100), clock: clock)
            clock.now = 100
            session.observeImpressions()
            #expect(session.impressionRows == expected, "card 7's frame is 58.3 % visible: \(percent) %")
        }
    }

    @Test func aRowThatLeavesBeforeDDoesNotCountAndOneThatStayedLongEnoughCountsWhenItLeaves() throws {
        let clock = ManualClock()
        let (session, _) = try open(ImpressionRule(fraction: 0.5, milliseconds: 500), clock: clock)
        clock.now = 300
        session.scroll(to: 1080)  // cards 0-9 leave after 300 ms: none counts
        #expect(session.impressionRows.isEmpty)
        clock.now = 900  // cards 10-17 have been on screen for 600 ms when they leave
        session.scroll(to: 3000)
        #expect(session.impressionRows == Array(10...17))
        let last = try #require(session.exposures.last)
        #expect(last.visibleMilliseconds == 600 && last.at == 900)
    }

    @Test func oncePerItemPerPageView() throws {
        let clock = ManualClock()
        let (session, _) = try open(ImpressionRule(fraction: 0.5, milliseconds: 0), clock: clock)
        #expect(session.impressionRows == Array(0...7))
        for y in [1000.0, 0, 1000, 0] {
            clock.now += 1000
            session.scroll(to: y)
        }
        #expect(session.impressionRows.count == Set(session.impressionRows).count, "each row once")
        // At 1000, cards 9 (74 %) to 16 (78 %) are shown; card 8 (864 to 972) never is, by half.
        #expect(Set(session.impressionRows) == Set(0...16).subtracting([8]))
    }

    @Test func eachEventNamesTheFloorTheItemAndTheRow() throws {
        let clock = ManualClock()
        let (session, _) = try open(.standard, clock: clock)
        clock.now = 500
        session.observeImpressions()
        let card = try #require(session.exposures.first { $0.row == 3 })
        #expect(card.floor == "feed" && card.itemID == "p3" && card.item == 0)
        #expect(card.section == 0 && card.sectionRow == 3 && card.type == "ProductCard" && card.fraction == 1)
    }

    @Test func aPinnedHeaderHidesWhatIsUnderIt() throws {
        let chain = try PageChain(in: TemporaryFolder(), items: [Self.ids(0..<30)], header: true)
        let host = try FloorHost(pluginFolder: try chain.folder.installShippedPlugins())
        let adapter = try host.layout(page: chain.files[0], width: 375)
        let header = adapter.rows[0].height
        #expect(header > 0 && adapter.describe(row: 0).isSticky)
        // Card p5 (row 6) is exactly half below the screen's top edge: 50 % without the pinned header, less with it.
        let offset = header + 5 * 108 + 54
        let clock = ManualClock()
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
            impressions: ImpressionRule(fraction: 0.5, milliseconds: 100), impressionClock: clock.source)
        session.scroll(to: offset)  // at once: the first screen's cards never count
        clock.now = 100
        session.observeImpressions()
        #expect(adapter.pinnedHeader(in: session.viewport)?.row == 0)
        #expect(!session.exposures.contains { $0.itemID == "p5" }, "p5 is half hidden by the pinned header")
        #expect(session.exposures.contains { $0.itemID == "p6" })
        #expect(session.exposures.contains { $0.row == 0 && $0.fraction == 1 }, "the pinned header itself is seen")
    }

    @Test func gridIconsAreItemsAndMarginsAreNot() throws {
        // Examples/home.json: a carousel (its current banner is its item), an icon grid of 5 a line, a title.
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
            impressions: .standard)
        session.settleImpressions()
        let seen = session.exposures
        #expect(seen.filter { $0.floor == "channels" }.map(\.itemID) == (0..<10).map { "c\($0)" })
        #expect(seen.first { $0.floor == "focus" }?.itemID == "b1")
        #expect(!seen.contains { $0.type.hasSuffix("Margin") }, "blank space is not seen")
        let title = try #require(seen.first { $0.type == "TitleBar" })
        #expect(title.item == nil && title.itemID == nil, "a title has no items: the row is the item")
        #expect(!seen.contains { $0.floor == LoadStateFooter.floorID })
    }

    @Test func theBatchCLIUsesOneSecondAStep() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        func impressions(_ extra: [String]) throws -> [[String: Any]] {
            let json = try jsonObject(
                try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json"] + extra)
                    .stdout)
            return (json["events"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "impression" }
        }
        #expect(try impressions([]).isEmpty, "off unless asked for")
        let first = try impressions(["--impression", "50%:1000ms"])
        #expect(!first.isEmpty && first.allSatisfy { number($0["atMs"]) == 1000 && number($0["visibleMs"]) == 1000 })
        #expect(
            first.contains {
                $0["itemId"] as? String == "c0" && $0["floor"] as? String == "channels" && number($0["row"]) == 2
            })
        #expect(try impressions(["--impression", "50%:1001ms"]).isEmpty, "the first screen is looked at for one step")
        let text = try floorhost([
            "--plugins", plugins, Repo.path("Examples/home.json"), "--impression", "50%:1000ms", "--color", "never",
        ])
        #expect(
            text.stdout.contains("; \(first.count) items seen (--format json lists the impression events)"),
            "\(text.stdout.suffix(300))")
        let bad = try floorhost(["--plugins", plugins, Repo.path("Examples/home.json"), "--impression", "50"])
        #expect(bad.status == 64 && bad.stderr.contains("P%:Dms"))
    }
}

extension PageSession {
    var exposures: [Impression] {
        events.compactMap { if case .impression(let seen) = $0 { seen } else { nil } }
    }
    /// Rows that counted, one per row (a row's several items count together).
    var impressionRows: [Int] {
        exposures.reduce(into: [Int]()) { rows, seen in if rows.last != seen.row { rows.append(seen.row) } }
    }
}
