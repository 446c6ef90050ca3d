import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import Testing

@testable import FloorServe

#if canImport(Glibc)
import Glibc
#endif

/// The batch CLI, the terminal view and the browser preview load next pages through the one load loop
/// (LoadLoop): each attempt the loop delivers is noted on the session (`loadsRun`), and an attempt a front
/// end fetched and finished on its own would not be. So for each front end, every completed load is one
/// the loop ran, by the driver that front end uses: blocking for the batch, hopping (another thread, then
/// the view's poll thread or the preview's lock) for the other two. The view's poll loop itself needs a
/// terminal: here the viewer's arrivals are run as ViewLoop runs them; tmux tests drive the whole view.
///
/// The tests wait by blocking their own thread, never on the cooperative pool: the loop fetches on
/// Dispatch threads, and a full test run keeps the pool's few threads busy for long stretches.
struct LoadLoopTests {
    /// Three pages of 12 cards each, chained by `next`.
    static func chain(_ fixture: ServeFixture) throws -> String {
        for k in 0..<3 {
            let items = (0..<12).map {
                #"{"id":"p\#(k)-\#($0)","title":"T","price":"¥1","img":"i.jpg","jump":{"url":"app://p/\#(k)/\#($0)"}}"#
            }
            let floors = #"[{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}]"#
            let next = k < 2 ? "\"loop-\(k + 1).json\"" : "null"
            try fixture.write("loop-\(k).json", #"{"floors":\#(floors),"next":\#(next)}"#)
        }
        return fixture.pages + "/loop-0.json"
    }

    static func completions(_ session: PageSession) -> [String] {
        session.events.compactMap {
            if case .loadMoreCompleted(_, let page, _) = $0 { return page } else { return nil }
        }
    }

    /// Generous: on a 2-core machine the tests running beside this one can keep every core busy.
    static let patience = 120.0

    @Test func theBatchTheViewAndThePreviewLoadThroughTheOneLoop() async throws {
        let fixture = try ServeFixture()
        let first = try Self.chain(fixture)
        let host = fixture.preview.host

        // The batch CLI: the session delivers immediately, through the loop's blocking driver.
        let adapter = try host.layout(page: first, width: 375)
        let batch = PageSession(adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry))
        batch.scrollToEnd()
        #expect(Self.completions(batch).count == 2)
        #expect(batch.loadsRun.map(\.location) == Self.completions(batch))
        #expect(batch.loadsRun.allSatisfy { $0.driver == .waiting })

        // The view: G scrolls to the end; the viewer's loop fetches on another thread and hops back through
        // the arrivals pipe ViewLoop polls.
        let viewer = try PageViewer(host: host, page: first, root: PageRoot(around: first), columns: 60, lines: 30)
        _ = viewer.handle(.end)
        let deadline = Date().addingTimeInterval(Self.patience)
        while Self.completions(viewer.session).count < 2, Date() < deadline {
            viewer.loads.pump()
            var fds = [pollfd(fd: viewer.arrivals.descriptor, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, 100) > 0 { viewer.arrivals.run() }
        }
        #expect(Self.completions(viewer.session).count == 2)
        #expect(viewer.session.loadsRun.map(\.location) == Self.completions(viewer.session))
        #expect(viewer.session.loadsRun.allSatisfy { $0.driver == .hopping })

        // The preview: a tab scrolled to the end; the session's loop hops back under the preview's lock.
        let preview = fixture.preview
        let id = preview.open(first, phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        func state() throws -> (runs: [LoadLoop.Run], completed: [String]) {
            try #require(preview.withSession(id) { ($0.session!.loadsRun, Self.completions($0.session!)) })
        }
        // Each delivered load pushes "changed"; the tab then looks again at the (new) end, which asks for the next.
        _ = preview.view(id, offset: 1_000_000, knownVersion: -1)
        var (runs, completed) = try state()
        while completed.count < 2 {
            guard await PreviewSessionTests.push("changed", on: pushes, within: Self.patience) else { break }
            _ = preview.view(id, offset: 1_000_000, knownVersion: -1)
            (runs, completed) = try state()
        }
        #expect(completed.count == 2)
        #expect(runs.map(\.location) == completed)
        #expect(runs.allSatisfy { $0.driver == .hopping })
    }

    /// A clock whose time moves only when the test says, and whose timers fire only when the test fires them.
    final class ManualClock: LoadClock, @unchecked Sendable {
        private let lock = NSLock()
        private var time = 500.0
        private var timers: [(deadline: Double, body: @Sendable () -> Void)] = []
        var now: Double { lock.withLock { time } }
        func wait(until deadline: Double) { lock.withLock { time = max(time, deadline) } }
        func after(_ deadline: Double, _ body: @escaping @Sendable () -> Void) {
            lock.withLock { timers.append((deadline, body)) }
        }
        var deadlines: [Double] { lock.withLock { timers.map(\.deadline) } }
        /// Moves time to `deadline` and fires the timers due by then.
        func advance(to deadline: Double) {
            let due = lock.withLock {
                time = max(time, deadline)
                defer { timers.removeAll { $0.deadline <= time } }
                return timers.filter { $0.deadline <= time }
            }
            for timer in due { timer.body() }
        }
    }

    /// The hop of a test: work waits here until the test runs it on its own thread.
    final class Mailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var work: [@Sendable () -> Void] = []
        /// Signalled once for each item posted: what `run` waits on.
        private let arrived = DispatchSemaphore(value: 0)
        func post(_ item: @escaping @Sendable () -> Void) {
            lock.withLock { work.append(item) }
            arrived.signal()
        }
        /// Runs what arrived, waiting (blocking, up to the test's patience) for something to arrive.
        func run() -> Bool {
            let deadline = DispatchTime.now() + LoadLoopTests.patience
            while arrived.wait(timeout: deadline) == .success {
                let items = lock.withLock {
                    defer { work.removeAll() }
                    return work
                }
                // Empty: the signal of an item an earlier run took with its own.
                guard !items.isEmpty else { continue }
                for item in items { item() }
                return true
            }
            return false
        }
    }

    @Test func aHoppingLoopWaitsForTheRetryOnTheSessionsClockThenDelivers() throws {
        let fixture = try ServeFixture()
        let first = try Self.chain(fixture)
        try FileManager.default.removeItem(atPath: fixture.pages + "/loop-1.json")  // missing: retryable
        let host = fixture.preview.host
        let clock = ManualClock()
        let session = PageSession(
            adapter: try host.layout(page: first, width: 375), viewportHeight: 812,
            source: PageSource(registry: host.registry),
            retryPolicy: RetryPolicy(attempts: 1, base: 2, jitter: { 1 }), clock: clock,
            deliversLoadsImmediately: false)
        let mailbox = Mailbox()
        var steps: [String] = []
        let loop = LoadLoop(
            session: session, hop: { mailbox.post($0) },
            onStep: { step in
                switch step {
                case .started(_, let retry): steps.append(retry ? "started retry" : "started")
                case .delivered: steps.append("delivered")
                }
            })
        session.scroll(to: session.maxOffset)
        loop.pump()
        #expect(mailbox.run())  // the failure, delivered: the retry waits 2 s on the clock
        #expect(session.retryDue == 502)
        #expect(clock.deadlines == [502], "one wake-up, at the retry's due time")
        loop.pump()
        #expect(clock.deadlines == [502], "pumping again schedules no second wake-up")
        _ = try Self.chain(fixture)  // the page appears
        clock.advance(to: 502)
        #expect(mailbox.run())  // the wake-up: the retry starts
        #expect(mailbox.run())  // its page, delivered
        #expect(steps.prefix(4) == ["started", "delivered", "started retry", "delivered"])
        let phases = session.events.compactMap { event -> String? in
            switch event {
            case .loadMoreRequested: "requested"
            case .loadMoreCompleted: "completed"
            case .loadMoreFailed: "failed"
            default: nil
            }
        }
        #expect(phases.prefix(4) == ["requested", "failed", "requested", "completed"])
        #expect(session.loadsRun.prefix(2).map(\.driver) == [.hopping, .hopping])
    }
}
