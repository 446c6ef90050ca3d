import FloorRuntime
import FloorServe
import FloorSession
import Foundation
import Testing

@testable import FloorServe

/// What a session kept all day costs: its events are a ring (the newest PreviewSession.eventLimit, the
/// dropped ones counted), so memory stays flat however long a tab scrolls; a session that has to go is
/// an idle one, and a live tab that must go anyway is told.
@Suite(.serialized)
struct SessionMemoryTests {
    /// Reports in the soak: 100,000 with FLOORKIT_SOAK=1 (about 18 minutes in a debug build on the 2 shared
    /// cores), 12,000 otherwise; either is past the event ring's limit, where the growth was.
    static let reports = ProcessInfo.processInfo.environment["FLOORKIT_SOAK"] == "1" ? 100_000 : 12_000

    /// `reports` view reports alternating between two offsets (each brings rows back on screen: events) to a
    /// real worker process (`floorhost serve-worker`, as serve runs it): after a warm-up of 2,000, the
    /// worker's allocated heap (mallinfo2, which it reports itself: the test process's own heap would count
    /// every other test running beside this one) grows by less than 8 MB (it grew 1.2-2.5 MB per 1,000
    /// reports before the event ring), and the tab is told how many events it missed.
    @Test func manyViewReportsKeepTheWorkersHeapFlat() throws {
        let setup = try WorkerPreviewTests.Setup(plugins: ["Focus", "IconGrid", "ProductFeed", "Title"])
        let preview = setup.preview
        let id = preview.open(setup.fixture.pages + "/home.json", phone: .standard)
        var version = -1
        func report(_ n: Int) throws {
            let bytes = try #require(preview.view(id, offset: n % 2 == 0 ? 0 : 1_600, knownVersion: version))
            if n % 1_000 == 0 {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
                version = object["version"] as? Int ?? version
            }
        }
        for n in 0..<2_000 { try report(n) }
        let warm = try #require(preview.workerMemory())
        for n in 2_000..<Self.reports { try report(n) }
        let after = try #require(preview.workerMemory())
        let grown = after.heap - warm.heap
        #expect(
            grown < 8 << 20,
            "the worker's heap grew \(grown) bytes over \(Self.reports - 2_000) reports (RSS \(warm.resident) -> \(after.resident) bytes)"
        )
        let last = try #require(preview.view(id, offset: 0, knownVersion: version))
        #expect(String(decoding: last, as: UTF8.self).contains(#""eventsDropped":"#))
        #expect(preview.workersStarted == 1, "one worker served every report")
    }

    /// 300 page loads (any web site can cause them) make room by forgetting idle sessions, never a tab with
    /// its event stream open or one that reported a view in the last 10 minutes; when every session is
    /// live, the one that goes is told ("expired"), so it reloads into a fresh session where it was.
    @Test func liveTabsAreNeverForgottenForIdleOnes() async throws {
        let fixture = try ServeFixture()
        let preview = Preview(
            host: try FloorHost(pluginFolder: fixture.plugins), root: try PageRoot(folder: fixture.pages),
            rootArgument: fixture.pages, maxSessions: 4)
        let page = fixture.pages + "/home.json"
        let streaming = preview.open(page, phone: .standard)
        let pushes = try #require(preview.subscribe(streaming))
        let viewing = preview.open(page, phone: .standard)
        _ = try #require(preview.view(viewing, offset: 0, knownVersion: -1))
        for _ in 0..<300 { preview.open(page, phone: .standard) }
        #expect(preview.kept(streaming) != nil && preview.kept(viewing) != nil)
        #expect(preview.sessionIDs.count == 4)

        // Every session live: the least recently used goes, and its tab is told.
        let others = preview.sessionIDs.filter { $0 != streaming && $0 != viewing }
        for id in others { _ = preview.view(id, offset: 0, knownVersion: -1) }
        _ = preview.view(viewing, offset: 0, knownVersion: -1)
        for id in others { _ = preview.view(id, offset: 0, knownVersion: -1) }
        preview.open(page, phone: .standard)
        #expect(preview.kept(streaming) == nil)
        #expect(await PreviewSessionTests.nextPush(pushes) == SessionEviction.message)
    }

    @Test func evictionPrefersIdleSessions() {
        let now = Date()
        let candidates: [SessionEviction.Candidate] = [
            .init(id: "streaming", lastUsed: now - 3_000, lastViewReport: nil, streams: 1),
            .init(id: "viewed", lastUsed: now - 2_000, lastViewReport: now - 599, streams: 0),
            .init(id: "stale", lastUsed: now - 10, lastViewReport: now - 601, streams: 0),
            .init(id: "fresh", lastUsed: now - 1, lastViewReport: nil, streams: 0),
        ]
        #expect(SessionEviction.choose(candidates, now: now) == "stale")
        #expect(SessionEviction.choose(Array(candidates.prefix(2)), now: now) == "streaming")
    }
}
