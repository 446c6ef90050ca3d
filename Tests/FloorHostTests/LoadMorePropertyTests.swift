import FloorConform
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Random page chains and random scroll sequences (seeded, so a failure reproduces): every next page is
/// requested exactly once, the final rows are the pages' rows in order minus the reported duplicates, and
/// nothing is requested after the end.
struct LoadMorePropertyTests {
    @Test(arguments: 0..<40)
    func randomChainsAndScrolls(seed: Int) throws {
        var random = SeededRandom(state: UInt64(seed) &* 0x1234_5678_9ABC_DEF1 &+ 7)
        // 1 to 6 pages of 0 to 14 products, unique within a page; ids come from a small pool, so later
        // pages repeat some that earlier pages showed.
        let pageCount = Int.random(in: 1...6, using: &random)
        let items = (0..<pageCount).map { _ in
            Array((0..<40).shuffled(using: &random).prefix(Int.random(in: 0...14, using: &random))).map { "p\($0)" }
        }
        // Some pages also bring a Title floor of their own after the feed.
        var extra: [Int: [String]] = [:]
        for k in 0..<pageCount where Bool.random(using: &random) {
            extra[k] = [#"{"type":"Title","id":"title-\#(k)","title":"Page \#(k)"}"#]
        }
        let chain = try PageChain(in: TemporaryFolder(), items: items, extra: extra)
        let distance = Int.random(in: 1...6, using: &random)
        let immediate = Bool.random(using: &random)
        let viewport = Double(Int.random(in: 100...900, using: &random))
        let (session, host) = try chain.session(viewport: viewport, distance: distance, immediate: immediate)

        // A random mix of jumps, steps, bounces back up, and deliveries of the load in flight.
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: session.scroll(to: Double.random(in: 0...max(1, session.maxOffset), using: &random))
            case 1:
                session.scroll(toward: session.viewport.offset + Double.random(in: 0...(2 * viewport), using: &random))
            case 2: session.scroll(to: session.viewport.offset - Double.random(in: 0...viewport, using: &random))
            default: session.deliverLoad()
            }
            #expect(session.requests.count == Set(session.requests).count, "a page was requested twice (seed \(seed))")
        }
        session.scrollToEnd()

        // Every next page, exactly once, in order.
        #expect(session.requests == Array(chain.files.dropFirst()), "seed \(seed)")
        #expect(session.completions == Array(chain.files.dropFirst()), "seed \(seed)")
        #expect(session.loadMore.state == .exhausted)

        // The feed holds every page's products in order, each id once; every drop was reported.
        var expected: [String] = []
        var duplicates = 0
        for ids in items {
            for id in ids {
                if expected.contains(id) { duplicates += 1 } else { expected.append(id) }
            }
        }
        #expect(session.feedProductIDs == expected, "seed \(seed)")
        let dropped = host.diagnostics(for: session.adapter).filter { $0.message.contains("dropped") }
        #expect(dropped.count == duplicates, "seed \(seed)")
        let titles = (0..<session.adapter.rowCount).map(session.adapter.describe(row:)).filter { $0.type == "TitleBar" }
            .map(\.floor)
        #expect(titles == extra.keys.sorted().map { "title-\($0)" }, "seed \(seed)")

        // Nothing after the end.
        let before = session.requests.count
        session.scroll(to: 0)
        session.scrollToEnd()
        #expect(session.requests.count == before)
    }
}
