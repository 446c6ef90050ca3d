import FloorServe
import FloorSession
import Foundation
import Testing

@testable import FloorServe

/// The browser's side of a session, driven the way the client script drives it: report an offset, draw
/// the rows of the answer, follow pushes. Load-more, sticky headers and reloads are the server's.
struct PreviewSessionTests {
    /// A view answer, parsed.
    struct View {
        let object: [String: Any]
        var version: Int { object["version"] as! Int }
        var height: Double { (object["height"] as? NSNumber)?.doubleValue ?? 0 }
        var rows: [[String: Any]] { object["rows"] as? [[String: Any]] ?? [] }
        var indices: [Int] { rows.map { $0["index"] as! Int } }
        var load: String { (object["load"] as? [String: Any])?["state"] as? String ?? "" }
        var pinned: Int? { (object["pinned"] as? [String: Any])?["index"] as? Int }
        var events: [[String: Any]] { object["events"] as? [[String: Any]] ?? [] }
        var error: String? { object["error"] as? String }
    }

    static func view(_ preview: Preview, _ id: String, offset: Double, version: Int) throws -> View {
        let bytes = try #require(preview.view(id, offset: offset, knownVersion: version))
        return View(object: try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]))
    }

    /// Waits for the next push on `stream` for at most `seconds`; nil when none came.
    /// A one-floor page whose next page is missing, opened, and its first view once the load has ended
    /// (failed); later.json is what the tests write to make a retry succeed.
    static func shortPageWithAMissingNext() async throws -> (ServeFixture, Preview, String, AsyncStream<String>, View) {
        let fixture = try ServeFixture()
        try fixture.write(
            "short.json", #"{"floors":[{"type":"Title","id":"t","title":"短页 Short"}],"next":"later.json"}"#)
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/short.json", phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        var view = try view(preview, id, offset: 0, version: -1)
        if view.load == "loading" {
            #expect(await nextPush(pushes) == "changed")
            view = try Self.view(preview, id, offset: 0, version: view.version)
        }
        return (fixture, preview, id, pushes, view)
    }

    /// The next push other than "ping", or nil after `seconds`. The deadline is generous: on a 2-core CI
    /// machine the tests running beside this one can keep every thread busy for seconds.
    static func nextPush(_ stream: AsyncStream<String>, within seconds: Double = 30) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await message in stream where message != "ping" { return message }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Waits for `message` on `stream` (other pushes may come first) for at most `seconds`. The default is a
    /// bound, not a pace: a push after a plugin change comes from a fresh worker process, whose start took
    /// over 30 s in full-suite runs on 2 loaded cores (WorkerPreviewTests), while it takes 0.3 s alone.
    static func push(_ message: String, on stream: AsyncStream<String>, within seconds: Double = 120) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await m in stream where m == message { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Scrolling to the bottom of the example feed: each next page is loaded once, off the request, its
    /// rows arrive (the tab is pushed "changed"), and every row the tab is sent is the page's row at that
    /// index: no row twice, none lost.
    @Test func scrollingToTheEndLoadsEveryNextPageOnceAndPushesItsRows() async throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        var version = -1
        var offset = 0.0
        var loads: [String] = []
        var seen: [Int: String] = [:]
        for _ in 0..<200 {
            let view = try Self.view(preview, id, offset: offset, version: version)
            version = view.version
            for row in view.rows {
                let index = row["index"] as! Int
                let html = row["html"] as! String
                let identity =
                    html.firstMatch(of: #/data-section="\d+" data-row="\d+" data-floor="[^"]*"/#).map {
                        String($0.output)
                    } ?? ""
                // The load-state footer's row becomes the next page's first row: only it may change.
                if let earlier = seen[index], !earlier.contains("floorhost.footer") {
                    #expect(earlier == identity, "row \(index) changed identity")
                }
                seen[index] = identity
            }
            loads += view.events.filter { $0["kind"] as? String == "loadMore" && $0["phase"] as? String == "requested" }
                .map { $0["page"] as! String }
            if view.load == "loading" {
                #expect(await Self.nextPush(pushes) == "changed")
                continue
            }
            if view.load == "end" && offset >= view.height - PhoneSize.standard.height { break }
            offset = min(view.height, offset + PhoneSize.standard.height)
        }
        #expect(loads.map { ($0 as NSString).lastPathComponent } == ["home-2.json", "home-3.json"])
        let final = try #require(preview.withSession(id) { $0.session!.adapter })
        #expect(seen.count == final.rowCount)
        // Every row index the tab was sent names a distinct row of the final page.
        #expect(Set(seen.values).count == seen.count)
        #expect(try Self.view(preview, id, offset: offset, version: version).load == "end")
    }

    /// The sticky header the adapter pins is the one the tab is told to pin.
    @Test func theStickyHeaderIsPinnedAsTheAdapterComputesIt() throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
        let header = try #require(
            fixture.preview.withSession(id) { s in
                (0..<s.session!.adapter.rowCount).first { s.session!.adapter.describe(row: $0).isSticky }
            } ?? nil)
        let top = try #require(fixture.preview.withSession(id) { $0.session!.adapter.describe(row: header).y })
        #expect(try Self.view(fixture.preview, id, offset: 0, version: -1).pinned == nil)
        #expect(try Self.view(fixture.preview, id, offset: top + 200, version: -1).pinned == header)
    }

    /// Saving the page file rebuilds the session, keeps its offset, and pushes "reload" to the tab.
    @Test func aSavedPageIsReloadedKeepingTheScrollOffset() async throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let file = fixture.pages + "/home.json"
        let id = preview.open(file, phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        let before = try Self.view(preview, id, offset: 600, version: -1)
        #expect(preview.reloadChangedPages() == 0)
        let edited = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
            of: "限时秒杀 Flash sale", with: "今日特价 Deals")
        try fixture.write("home.json", edited)
        #expect(preview.reloadChangedPages() == 1)
        #expect(await Self.nextPush(pushes) == "reload")
        let after = try Self.view(preview, id, offset: 600, version: before.version)
        #expect(after.version > before.version)
        #expect(after.rows.contains { ($0["html"] as! String).contains("今日特价 Deals") })
        #expect(!after.rows.contains { ($0["html"] as! String).contains("限时秒杀") })
        #expect(preview.withSession(id) { $0.session!.viewport.offset } == 600)
        // A broken save shows the error; fixing it shows the page again.
        try fixture.write("home.json", "{\"floors\": [")
        #expect(preview.reloadChangedPages() == 1)
        #expect(try Self.view(preview, id, offset: 600, version: after.version).error?.contains("home.json:1:") == true)
        try fixture.write("home.json", edited)
        #expect(preview.reloadChangedPages() == 1)
        #expect(try Self.view(preview, id, offset: 600, version: after.version).rows.isEmpty == false)
    }

    /// A next page already loaded is watched too: saving it reloads the session.
    @Test func aSavedNextPageIsReloadedToo() throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: .standard)
        preview.withSession(id) { s in
            s.session!.deliversLoadsImmediately = true
            s.session!.scrollToEnd()
            s.restamp()
        }
        let next = fixture.pages + "/home-2.json"
        let text = try String(contentsOfFile: next, encoding: .utf8)
        try fixture.write("home-2.json", text + " ")
        #expect(preview.reloadChangedPages() == 1)
    }

    /// The least recently used session is forgotten past the bound, and its tab is told ("expired": it
    /// reloads into a fresh session) and its push stream ends (the stream's end takes the same lock:
    /// finishing it under the lock would deadlock).
    @Test(.timeLimit(.minutes(1)))
    func pastTheBoundTheOldestSessionIsForgottenAndItsStreamEnds() async throws {
        let fixture = try ServeFixture()
        let preview = Preview(
            host: fixture.preview.host, root: fixture.preview.root, rootArgument: fixture.pages, maxSessions: 1)
        let first = preview.open(fixture.pages + "/home.json", phone: .standard)
        let pushes = try #require(preview.subscribe(first))
        let second = preview.open(fixture.pages + "/home.json", phone: .standard)
        var others: [String] = []
        for await message in pushes where message != "changed" { others.append(message) }
        #expect(others == [SessionEviction.message])  // the stream ended with nothing else
        #expect(preview.view(first, offset: 0, knownVersion: -1) == nil)
        #expect(preview.view(second, offset: 0, knownVersion: -1) != nil)
        preview.endPushes()
    }

    /// A failed next page shows as failed with its reason; retry loads it once the file is there.
    @Test func aFailedLoadIsShownAndRetryWorks() async throws {
        let (fixture, preview, id, pushes, first) = try await Self.shortPageWithAMissingNext()
        var view = first
        #expect(view.load == "failed")
        try fixture.write("later.json", #"{"floors":[{"type":"Title","id":"t2","title":"后来 Later"}]}"#)
        #expect(preview.retry(id))
        #expect(await Self.nextPush(pushes) == "changed")
        view = try Self.view(preview, id, offset: 0, version: view.version)
        #expect(view.load == "end")
        #expect(view.rows.contains { ($0["html"] as! String).contains("后来 Later") })
    }

    /// Impressions on the wall clock: the rows of the first screen count half a second after it is shown,
    /// with nobody scrolling; the tab is told, and its next answer carries the events.
    @Test func rowsOnScreenCountAsSeenWithoutAScroll() async throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        var view = try Self.view(preview, id, offset: 0, version: -1)
        #expect(!view.events.contains { $0["kind"] as? String == "impression" })
        #expect(await Self.nextPush(pushes) == "changed")
        view = try Self.view(preview, id, offset: 0, version: view.version)
        let seen = view.events.filter { $0["kind"] as? String == "impression" }
        #expect(seen.contains { $0["floor"] as? String == "channels" && $0["itemId"] as? String == "c0" })
        #expect(seen.allSatisfy { (($0["visibleMs"] as? NSNumber)?.doubleValue ?? 0) >= 500 })
    }

    /// The preview draws the host's footer row; a click on it while the load failed retries the load.
    @Test func aClickOnTheFailedFooterRetries() async throws {
        let (fixture, preview, id, pushes, first) = try await Self.shortPageWithAMissingNext()
        var view = first
        let footer = try #require(view.rows.first { ($0["html"] as! String).contains("floorhost.footer") })
        #expect((footer["html"] as! String).contains("(tap to retry)") && footer["tappable"] as? Int == 1)
        try fixture.write("later.json", #"{"floors":[{"type":"Title","id":"t2","title":"后来 Later"}]}"#)
        guard case .success(let bytes)? = preview.tap(id, row: footer["index"] as! Int, x: 10, y: 10) else {
            Issue.record("the footer's tap has an action")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""url":"floorhost:\/\/retry""#))
        #expect(await Self.nextPush(pushes) == "changed")
        view = try Self.view(preview, id, offset: 0, version: view.version)
        #expect(view.load == "end")
        #expect(view.rows.contains { ($0["html"] as! String).contains("后来 Later") })
        #expect(view.rows.contains { ($0["html"] as! String).contains("no more") })
    }
}
