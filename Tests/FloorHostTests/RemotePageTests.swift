import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Pages over HTTP (issue 13): a real server on loopback (Tests/Fixtures/PageServer/page_server.py), the
/// real client, the session's load-more rules under real timing, and every way a load goes wrong, each a
/// `loadMore` failure with a reason a person understands and no row lost or duplicated.
@Suite(.serialized) struct RemotePageTests {
    /// A served chain: page k holds products `items[k]` in the feed floor and links to page k + 1.
    static func served(_ items: [[String]]) throws -> (PageServer, PageChain) {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: items)
        return (try PageServer(serving: folder), chain)
    }

    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    /// A session on the served page `first`, with the shipped plugins, fetched by `client`.
    static func session(
        _ server: PageServer, first: String = "page-0.json", client: RemotePageClient = RemotePageClient(),
        policy: RetryPolicy = RetryPolicy(), clock: any LoadClock = SystemLoadClock(),
        immediate: Bool = true
    ) throws -> (PageSession, FloorHost) {
        let host = try FloorHost(
            pluginFolder: try server.folder.installShippedPlugins(into: "plugins-\(UUID().uuidString)"))
        let adapter = try host.layout(page: server.url(first), remote: client, width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry, remote: client),
            retryPolicy: policy, clock: clock, deliversLoadsImmediately: immediate)
        return (session, host)
    }

    /// What an interactive front end does with a load in flight: fetch it off the session, then finish it.
    /// Returns whether there was one to fetch.
    @discardableResult
    static func fetchAndFinish(_ session: PageSession) async -> Bool {
        guard let load = session.startLoad() else { return false }
        let fetched = await session.source.fetch(load.location, linkedFrom: load.linkedFrom)
        session.finish(load, with: fetched)
        return true
    }

    static func rows(_ session: PageSession) -> [RowInfo] {
        (0..<session.adapter.rowCount).map(session.adapter.describe(row:))
    }

    // MARK: Chains

    @Test func aThreePageChainOverHTTPLoadsEachPageOnceThroughTheCLI() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20), Self.ids(20..<30)])
        let plugins = try server.folder.installShippedPlugins()
        let result = try floorhost([
            "--plugins", plugins, server.url("page-0.json"), "--format", "json", "--scroll-to", "end",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let loads = try #require(output["events"] as? [[String: Any]]).filter { $0["kind"] as? String == "loadMore" }
        #expect(loads.map { $0["phase"] as? String } == ["requested", "completed", "requested", "completed"])
        #expect(
            loads.map { $0["page"] as? String } == [
                server.url("page-1.json"), server.url("page-1.json"),
                server.url("page-2.json"), server.url("page-2.json"),
            ])
        // The feed's 30 cards, then the host's load-state footer saying the end.
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.count == 31 && rows.last?["floor"] as? String == "floorhost.footer")
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-2.json"])
    }

    @Test func relativeAndAbsoluteNextURLsResolveAgainstThePage() throws {
        let folder = try TemporaryFolder()
        let server = try PageServer(serving: folder)
        func page(_ ids: [String], next: String?) -> String {
            let items = ids.map {
                #"{"id":"\#($0)","title":"T","price":"¥1","img":"i.jpg","jump":{"url":"app://p/\#($0)"}}"#
            }
            return
                #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}],"next":\#(next.map { "\"\($0)\"" } ?? "null")}"#
        }
        try folder.write("page-0.json", page(Self.ids(0..<3), next: "feed/page-1.json"))  // relative
        try folder.write("feed/page-1.json", page(Self.ids(3..<6), next: "/page-2.json"))  // absolute path
        // An absolute URL.
        try folder.write("page-2.json", page(Self.ids(6..<9), next: server.url("feed/../feed/page-3.json#top")))
        try folder.write("feed/page-3.json", page(Self.ids(9..<12), next: "page-3.json"))  // itself: the chain ends
        let (session, _) = try Self.session(server)
        session.scrollToEnd()
        #expect(
            session.requests == [
                server.url("feed/page-1.json"), server.url("page-2.json"), server.url("feed/page-3.json"),
            ])
        #expect(session.feedProductIDs == Self.ids(0..<12))
        #expect(session.loadMore.state == .stopped(.loop(page: server.url("feed/page-3.json"))))
        #expect(server.requests == ["/page-0.json", "/feed/page-1.json", "/page-2.json", "/feed/page-3.json"])
    }

    @Test func scrollingGoesOnWhileASlowPageIsInFlight() async throws {
        let (server, _) = try Self.served([Self.ids(0..<20), Self.ids(20..<40), Self.ids(40..<60)])
        try server.script(["/page-1.json": [["hold": "page-1"]]])
        let (session, _) = try Self.session(server, immediate: false)
        session.scroll(to: session.maxOffset)
        #expect(session.requests == [server.url("page-1.json")])
        let load = try #require(session.startLoad())
        let fetch = Task { await session.source.fetch(load.location, linkedFrom: load.linkedFrom) }
        // The server holds the answer; the list keeps scrolling, and nothing else starts.
        let displayedBefore = session.displayedRows.count
        for y in stride(from: session.maxOffset, through: 0, by: -200) { session.scroll(to: y) }
        for y in stride(from: 0, through: session.maxOffset, by: 150) { session.scroll(to: y) }
        #expect(session.displayedRows.count > displayedBefore, "rows entered the screen while the load was in flight")
        #expect(session.startLoad() == nil, "one load in flight")
        #expect(session.requests == [server.url("page-1.json")])
        #expect(session.adapter.contentRowCount == 20)
        server.release("page-1")
        session.finish(load, with: await fetch.value)
        #expect(session.completions == [server.url("page-1.json")])
        #expect(session.feedProductIDs == Self.ids(0..<40))
        // The stale count does not fire again; scrolling on loads the third page, once.
        session.scroll(to: session.maxOffset)
        await Self.fetchAndFinish(session)
        #expect(session.feedProductIDs == Self.ids(0..<60))
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-2.json"])
    }

    @Test func shortPagesKeepLoadingAndNothingLoadsAfterTheEndUnderRealTiming() async throws {
        // Three cards (324 points) a page: the 812-point screen fills on the third page, whose last rows are
        // within the load-more distance (4), so the fourth loads too; then rows 0-7 of 12 show: pages remain.
        let (server, _) = try Self.served([
            Self.ids(0..<3), Self.ids(3..<6), Self.ids(6..<9), Self.ids(9..<12), Self.ids(12..<15),
        ])
        let (session, _) = try Self.session(server, immediate: false)
        while await Self.fetchAndFinish(session) {}
        #expect(session.requests == [server.url("page-1.json"), server.url("page-2.json"), server.url("page-3.json")])
        #expect(session.loadMore.state == .idle)
        session.scroll(to: session.maxOffset)
        while await Self.fetchAndFinish(session) { session.scroll(to: session.maxOffset) }
        #expect(session.loadMore.state == .exhausted)
        for _ in 0..<3 {
            session.scroll(to: 0)
            session.scroll(to: session.maxOffset)
            #expect(session.startLoad() == nil)
        }
        #expect(session.feedProductIDs == Self.ids(0..<15))
        #expect(server.requests == (0..<5).map { "/page-\($0).json" }, "each page once")
    }

    @Test func aReloadReadsARemotePageAndItsNextPagesAgain() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        let (session, _) = try Self.session(server)
        session.scroll(to: session.maxOffset)
        #expect(session.feedProductIDs == Self.ids(0..<20))
        // The CMS renames product p1 on the first page: the reload sees it, and keeps the next page loaded.
        let first = try String(contentsOfFile: server.folder.file("page-0.json"), encoding: .utf8)
        try server.folder.write(
            "page-0.json", first.replacingOccurrences(of: "Product p1\"", with: "Product p1 (new)\""))
        let diff = try session.reload()
        #expect(diff.floors.count == 1)
        #expect(session.adapter.contentRowCount == 20)
        #expect(session.feedProductIDs == Self.ids(0..<20))
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-0.json", "/page-1.json"])
    }

    // MARK: Failures

    /// One way a next page fails: the script for page-1, the client's limits, and what the reason says.
    struct FailureMode: CustomTestStringConvertible, Sendable {
        let name: String
        let step: [String: any Sendable]
        var timeout = 10.0
        var maxBytes = PageRoot.defaultMaxPageBytes
        /// Parts of the reason, with PORT for the server's port.
        let says: [String]
        var testDescription: String { name }
    }

    static let failureModes: [FailureMode] = [
        FailureMode(
            name: "no answer in time", step: ["silent": true], timeout: 0.5,
            says: ["no answer from 127.0.0.1:PORT within 0.5 s (--load-timeout)"]),
        FailureMode(
            name: "a stall mid-body", step: ["stall_after": 100], timeout: 0.5,
            says: [
                "the server stopped sending the page after 100 of ",
                " bytes; it did not finish within 0.5 s (--load-timeout)",
            ]),
        FailureMode(
            name: "too large", step: ["serve": true], maxBytes: 2000,
            says: ["is larger than 2000 bytes (--max-page-bytes)"]),
        // No Content-Length to refuse at the head: the body is counted as it arrives.
        FailureMode(
            name: "too large, no length announced", step: ["unannounced": true], maxBytes: 2000,
            says: ["is larger than 2000 bytes (--max-page-bytes)"]),
        // An error page larger than the page limit is still the server's status, not a page too large.
        FailureMode(
            name: "a 404 with a large body", step: ["status": 404, "body": String(repeating: "x", count: 100_000)],
            maxBytes: 2000, says: ["the server answered 404 Not Found; check the URL and the server"]),
        FailureMode(
            name: "404", step: ["status": 404],
            says: ["the server answered 404 Not Found; check the URL and the server"]),
        FailureMode(name: "503", step: ["status": 503], says: ["the server answered 503 Service Unavailable"]),
        FailureMode(name: "not a page", step: ["body": "<html>busy</html>"], says: [":1:1: "]),
        FailureMode(name: "a reset", step: ["reset": true], says: ["the connection to 127.0.0.1:PORT was reset"]),
        FailureMode(
            name: "an encoding not asked for",
            step: ["body": "\u{1f}\u{8b}\u{08}\u{00}", "headers": ["Content-Encoding": "gzip"]],
            says: ["the server sent the page gzip-encoded (Content-Encoding: gzip), which was not asked for"]),
        // The bytes sent before the reset may or may not be read before it: the count is not asserted.
        FailureMode(
            name: "a reset mid-body", step: ["reset_after": 100],
            says: ["the connection to 127.0.0.1:PORT was reset after ", " of "]),
        FailureMode(
            name: "a close mid-body", step: ["close_after": 100],
            says: ["the server closed the connection after 100 of ", " bytes, before the page was complete"]),
    ]

    @Test(arguments: failureModes) func aFailedNextPageKeepsEveryRowSaysWhyAndCanBeRetried(_ mode: FailureMode)
        async throws
    {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<40)])
        try server.script(["/page-1.json": [mode.step as [String: Any], ["serve": true]]])
        let client = RemotePageClient(timeout: mode.timeout, maxBytes: mode.maxBytes)
        let (session, _) = try Self.session(server, client: client, immediate: false)
        session.scroll(to: session.maxOffset)
        let before = Self.rows(session)
        let started = Date()
        #expect(await Self.fetchAndFinish(session))
        #expect(Date().timeIntervalSince(started) < mode.timeout + 5, "the time limit held")
        let reason = try #require(session.failures.first)
        #expect(session.failures.count == 1)
        #expect(reason.hasPrefix(server.url("page-1.json")), "names the URL: \(reason)")
        for part in mode.says {
            #expect(reason.contains(part.replacingOccurrences(of: "PORT", with: "\(server.port)")), "\(reason)")
        }
        #expect(session.loadMore.state == .failed(location: server.url("page-1.json"), reason: reason))
        #expect(Self.rows(session) == before, "no row lost or duplicated")
        // Scrolling does not retry; a retry (R, the preview's button) does, and every row comes once.
        session.scroll(to: 0)
        session.scroll(to: session.maxOffset)
        #expect(session.startLoad() == nil)
        if mode.maxBytes < PageRoot.defaultMaxPageBytes { return }  // the page stays too large
        session.retry()
        #expect(await Self.fetchAndFinish(session))
        #expect(session.feedProductIDs == Self.ids(0..<40))
        #expect(server.requests.filter { $0 == "/page-1.json" }.count == 2)
    }

    @Test func aRefusedConnectionSaysNothingListens() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), []])
        let closed = try Self.closedPort()
        try server.folder.write("page-0.json", #"{"floors":[],"next":"http://127.0.0.1:\#(closed)/page-1.json"}"#)
        let client = RemotePageClient(
            rules: OriginRules(allowed: [PageOrigin(URL(string: "http://127.0.0.1:\(closed)")!)!]))
        let (session, _) = try Self.session(server, client: client)
        #expect(
            session.failures == [
                "http://127.0.0.1:\(closed)/page-1.json: connection refused: nothing listens at 127.0.0.1:\(closed); is the server running?"
            ])
    }

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw CocoaError(.fileNoSuchFile) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: Retry by policy

    @Test func retryWithBackoffRecoversFromTwo503s() async throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        try server.script(["/page-1.json": [["status": 503], ["status": 503], ["serve": true]]])
        let clock = RecordingClock()
        let policy = RetryPolicy(attempts: 3, base: 0.25, jitter: { 0.999 })
        let (session, _) = try Self.session(server, policy: policy, clock: clock, immediate: false)
        session.scroll(to: session.maxOffset)
        #expect(await Self.fetchAndFinish(session))
        // The load stays in flight while its retry waits: nothing else starts, and nothing before it is due.
        #expect(session.retryDue.map { abs($0 - clock.now - (0.125 + 0.125 * 0.999)) < 1e-9 } == true)
        #expect(session.startLoad() == nil)
        clock.advance(0.25)
        #expect(await Self.fetchAndFinish(session))
        #expect(session.retryDue.map { ($0 - clock.now) * 1000 }.map { $0.rounded() } == 500)
        clock.advance(0.5)
        #expect(await Self.fetchAndFinish(session))
        #expect(session.loadEvents == ["requested", "failed", "requested", "failed", "requested", "completed"])
        #expect(session.feedProductIDs == Self.ids(0..<20))
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-1.json", "/page-1.json"])
    }

    @Test func theBatchCLIWaitsOutTheBackoffOnTheClock() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        try server.script(["/page-1.json": [["status": 503], ["status": 502], ["serve": true]]])
        let clock = RecordingClock()
        let (session, _) = try Self.session(
            server, policy: RetryPolicy(attempts: 2, base: 0.25, jitter: { 0 }), clock: clock)
        session.scrollToEnd()
        #expect(clock.waits == [0.125, 0.25])
        #expect(session.loadEvents == ["requested", "failed", "requested", "failed", "requested", "completed"])
        #expect(session.feedProductIDs == Self.ids(0..<20))
    }

    @Test func retryAfterIsHonoured() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        try server.script([
            "/page-1.json": [
                ["status": 503, "headers": ["Retry-After": "3"]], ["status": 429, "headers": ["Retry-After": "600"]],
            ]
        ])
        let clock = RecordingClock()
        let (session, _) = try Self.session(server, policy: RetryPolicy(attempts: 5, jitter: { 0 }), clock: clock)
        session.scrollToEnd()
        #expect(clock.waits == [3], "3 s as asked, not the 0.125 s backoff; 600 s is not waited for")
        #expect(
            session.failures.first?.hasSuffix(
                "the server answered 503 Service Unavailable and asked to wait 3 s (Retry-After)") == true)
        #expect(
            session.failures.last?.hasSuffix(
                "429 Too Many Requests and asked to wait 600 s (Retry-After); not retried: the server asked to wait 600 s, longer than floorhost waits (120 s)"
            ) == true,
            "\(session.failures)")
        #expect(session.loadMore.state == .failed(location: server.url("page-1.json"), reason: session.failures.last!))
    }

    @Test func aManualRetryWorksAfterThePolicyGaveUp() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        try server.script(["/page-1.json": [["status": 503], ["status": 503], ["status": 503], ["serve": true]]])
        let clock = RecordingClock()
        let (session, _) = try Self.session(server, policy: RetryPolicy(attempts: 1, jitter: { 0 }), clock: clock)
        session.scrollToEnd()
        guard case .failed = session.loadMore.state else {
            Issue.record("the policy gave up: \(session.loadMore.state)")
            return
        }
        #expect(session.adapter.contentRowCount == 10)
        session.retry()
        #expect(session.feedProductIDs == Self.ids(0..<20))
        #expect(
            session.loadEvents == [
                "requested", "failed", "requested", "failed", "requested", "failed", "requested", "completed",
            ])
        #expect(server.requests.filter { $0 == "/page-1.json" }.count == 4)
    }

    // MARK: Origins and redirects

    @Test func nextStaysOnTheOriginUnlessAllowed() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        // "localhost" is another origin than "127.0.0.1", though the same server answers.
        let other = "http://localhost:\(server.port)"
        try server.folder.write("page-0.json", #"{"floors":[],"next":"\#(other)/page-1.json"}"#)
        let (refused, _) = try Self.session(server)
        #expect(
            refused.failures == [
                "\(server.url("page-0.json")): next: '\(other)/page-1.json' is on origin \(other), not \(server.origin); a remote page's next stays on its own origin (--allow-origin \(other) allows this one)"
            ])
        #expect(server.requests == ["/page-0.json"])
        let allowed = RemotePageClient(rules: OriginRules(allowed: [PageOrigin(argument: other)!]))
        let (session, _) = try Self.session(server, client: allowed)
        #expect(session.completions == ["\(other)/page-1.json"])

        // A remote page never names a file; a page file names a URL only on an allowed origin.
        try server.folder.write("page-0.json", #"{"floors":[],"next":"file:///etc/passwd"}"#)
        let (file, _) = try Self.session(server)
        #expect(
            file.failures == [
                "\(server.url("page-0.json")): next: 'file:///etc/passwd' is a file: location; a remote page (\(server.origin)) links only to http and https pages"
            ])
        try server.folder.write("local.json", #"{"floors":[],"next":"\#(server.url("page-1.json"))"}"#)
        let host = try FloorHost(pluginFolder: try server.folder.installShippedPlugins(into: "plugins-local"))
        let local = PageSession(
            adapter: try host.layout(page: server.folder.file("local.json"), width: 375), viewportHeight: 812,
            source: PageSource(registry: host.registry))
        #expect(
            local.failures == [
                "\(server.folder.file("local.json")): next: '\(server.url("page-1.json"))' is a remote page, and a page file may link only to origins --allow-origin names (--allow-origin \(server.origin) allows this one)"
            ])
        #expect(server.requests.filter { $0 == "/page-1.json" }.count == 1, "only the allowed load reached the server")
    }

    @Test func redirectsAreFollowedOnTheOriginAndALoopIsNamed() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20), Self.ids(20..<30)])
        for page in ["page-1.json", "page-2.json"] {
            try server.folder.write(
                "moved/" + page, try String(contentsOfFile: server.folder.file(page), encoding: .utf8))
        }
        try server.script(["/page-1.json": [["redirect": "/moved/page-1.json", "status": 301]]])
        let (moved, _) = try Self.session(server)
        moved.scrollToEnd()
        #expect(moved.feedProductIDs == Self.ids(0..<30))
        // The moved page's relative next resolves against where it was found, as a browser's would.
        #expect(moved.requests == [server.url("page-1.json"), server.url("moved/page-2.json")])
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/moved/page-1.json", "/moved/page-2.json"])
        try server.folder.write("_requests.log", "")

        try server.script([
            "/page-1.json": [["redirect": "/a.json"]], "/a.json": [["redirect": "page-1.json", "status": 307]],
        ])
        let (loop, _) = try Self.session(server)
        #expect(
            loop.failures == [
                "\(server.url("page-1.json")): redirect loop: \(server.url("page-1.json")) → \(server.url("a.json")) → \(server.url("page-1.json")); fix the redirects on the server"
            ])
        #expect(loop.adapter.contentRowCount == 10)

        try server.script(["/page-1.json": [["redirect": "http://localhost:\(server.port)/page-1.json"]]])
        let (away, _) = try Self.session(server)
        #expect(
            away.failures.first?.contains(
                "redirected to 'http://localhost:\(server.port)/page-1.json', which is on origin http://localhost:\(server.port), not \(server.origin)"
            ) == true,
            "\(away.failures)")
    }

    // MARK: On the wire

    @Test func nextPagesGoOutOverOneKeptAliveConnection() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20), Self.ids(20..<30)])
        let plugins = try server.folder.installShippedPlugins()
        // One process, whose client nothing else uses: its three loads, one after another.
        let result = try floorhost([
            "--plugins", plugins, server.url("page-0.json"), "--format", "json", "--scroll-to", "end",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-2.json"])
        #expect(server.connections == 1, "each next page reused the connection of the page before it")
    }

    @Test func aProxyInTheEnvironmentIsNotUsed() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        let plugins = try server.folder.installShippedPlugins()
        // Nothing listens at the proxy: a load through it would fail as a refused connection.
        let proxy = "http://127.0.0.1:\(try Self.closedPort())"
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = proxy }
        let result = try run(
            Repo.floorhostBinary,
            ["--plugins", plugins, server.url("page-0.json"), "--format", "json", "--scroll-to", "end"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests == ["/page-0.json", "/page-1.json"], "asked of the page's own origin")
    }

    @Test func aPageWithoutAnnouncedLengthLoadsToTheClose() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20)])
        try server.script(["/page-1.json": [["unannounced": true]]])
        let (session, _) = try Self.session(server)
        session.scrollToEnd()
        #expect(session.failures == [])
        #expect(session.feedProductIDs == Self.ids(0..<20))
    }

    // MARK: The CLI

    @Test func theCLINamesAnUnreachableFirstPageAndRefusesABadOrigin() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let closed = try Self.closedPort()
        let down = try floorhost(["--plugins", plugins, "http://127.0.0.1:\(closed)/home.json"])
        #expect(down.status == 2)
        #expect(
            down.stderr.contains(
                "error: http://127.0.0.1:\(closed)/home.json: connection refused: nothing listens at 127.0.0.1:\(closed); is the server running?"
            ), "\(down.stderr)")
        let bad = try floorhost([
            "--plugins", plugins, "http://127.0.0.1:1/home.json", "--allow-origin", "127.0.0.1:8000/x",
        ])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("expected an origin, scheme://host[:port]"), "\(bad.stderr)")
    }

    @Test func checkFollowsAChainOverHTTP() throws {
        let (server, _) = try Self.served([Self.ids(0..<10), Self.ids(10..<20), Self.ids(20..<30)])
        let plugins = try server.folder.installShippedPlugins()
        let result = try floorhost(["check", "--plugins", plugins, server.url("page-0.json")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests == ["/page-0.json", "/page-1.json", "/page-2.json"])
    }
}

extension PageSession {
    /// The phases of the loadMore events, in order.
    var loadEvents: [String] {
        events.compactMap {
            switch $0 {
            case .loadMoreRequested: "requested"
            case .loadMoreCompleted: "completed"
            case .loadMoreFailed: "failed"
            default: nil
            }
        }
    }
}
