import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FloorServe
import FloorRuntime
import FloorSession
import FloorTerminal

/// The batch CLI, the terminal view and the browser preview load next pages through the one load loop
/// (LoadLoop): each attempt the loop delivers is noted on the session (`loadsRun`), and an attempt a front
/// end fetched and finished on its own would not be. So for each front end, every completed load is one
/// the loop ran, by the driver that front end uses: blocking for the batch, hopping (a task, then the view's
/// poll thread or the preview's lock) for the other two. The view's poll loop itself needs a terminal: here
/// the viewer's arrivals are run as ViewLoop runs them; tmux tests drive the whole view.
struct LoadLoopTests {
    /// Three pages of 12 cards each, chained by `next`.
    static func chain(_ fixture: ServeFixture) throws -> String {
        for k in 0..<3 {
            let items = (0..<12).map { #"{"id":"p\#(k)-\#($0)","title":"T","price":"¥1","img":"i.jpg","jump":{"url":"app://p/\#(k)/\#($0)"}}"# }
            let next = k < 2 ? "\"loop-\(k + 1).json\"" : "null"
            try fixture.write("loop-\(k).json", #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}],"next":\#(next)}"#)
        }
        return fixture.pages + "/loop-0.json"
    }

    static func completions(_ session: PageSession) -> [String] {
        session.events.compactMap { if case .loadMoreCompleted(_, let page, _) = $0 { return page } else { return nil } }
    }

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

        // The view: G scrolls to the end; the viewer's loop fetches on a task and hops back through the
        // arrivals pipe ViewLoop polls.
        let viewer = try PageViewer(host: host, page: first, root: PageRoot(around: first), columns: 60, lines: 30)
        _ = viewer.handle(.end)
        let deadline = Date().addingTimeInterval(30)
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
        var runs: [LoadLoop.Run] = [], completed: [String] = []
        while completed.count < 2, Date() < deadline {
            _ = preview.view(id, offset: 1_000_000, knownVersion: -1)
            (runs, completed) = try #require(preview.withSession(id) { ($0.session?.loadsRun ?? [], Self.completions($0.session!)) })
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(completed.count == 2)
        #expect(runs.map(\.location) == completed)
        #expect(runs.allSatisfy { $0.driver == .hopping })
    }
}
