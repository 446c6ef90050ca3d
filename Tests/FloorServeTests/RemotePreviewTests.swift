import FloorRuntime
import FloorServe
import FloorSession
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import FloorServe

/// The preview (`serve`) loading next pages over HTTP from a real server on loopback, in-process on
/// Hummingbird (the framework the preview is built on): a page the server holds back is fetched off the
/// tab's requests (they keep being answered, and nothing else starts), its rows arrive by push; a failing
/// page is retried by the policy, then by the retry button after the policy gave up.
@Suite(.serialized) struct RemotePreviewTests {
    /// Next pages at http://127.0.0.1:PORT/feed/<name>: `held` ones answer only once released; `failures`
    /// answers 503 that many times first. Every request is recorded.
    final class FeedServer: @unchecked Sendable {
        private let lock = NSLock()
        private var pages: [String: String] = [:]
        private var failures: [String: Int] = [:]
        private var held: Set<String> = []
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var requests: [String] = []
        /// Every request's page name, as it arrives.
        let arrivals: AsyncStream<String>
        private let arrival: AsyncStream<String>.Continuation

        init() {
            (arrivals, arrival) = AsyncStream<String>.makeStream()
        }
        private var group: ServiceGroup?
        private(set) var port = 0

        func page(_ name: String, _ json: String, held: Bool = false, failures: Int = 0) {
            lock.withLock {
                pages[name] = json
                self.failures[name] = failures
                if held { self.held.insert(name) }
            }
        }

        func release() {
            let continuations: [CheckedContinuation<Void, Never>] = lock.withLock {
                held.removeAll()
                defer { waiting.removeAll() }
                return waiting
            }
            for c in continuations { c.resume() }
        }

        var origin: String { "http://127.0.0.1:\(port)" }

        func start() async throws {
            let router = Router()
            router.get("/feed/:name") { [self] _, context -> Response in
                let name = try context.parameters.require("name")
                let isHeld: Bool = lock.withLock {
                    requests.append(name)
                    return held.contains(name)
                }
                arrival.yield(name)
                if isHeld {
                    await withCheckedContinuation { c in
                        lock.withLock { if held.contains(name) { waiting.append(c) } else { c.resume() } }
                    }
                }
                let (json, fail): (String?, Bool) = lock.withLock {
                    let left = failures[name] ?? 0
                    if left > 0 { failures[name] = left - 1 }
                    return (pages[name], left > 0)
                }
                if fail { return Response(status: .serviceUnavailable) }
                guard let json else { return Response(status: .notFound) }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: json)))
            }
            var logger = Logger(label: "feed-server")
            logger.logLevel = .error
            let (ports, portContinuation) = AsyncStream<Int>.makeStream()
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
            let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
            self.group = group
            Task { try? await group.run() }
            for await port in ports {
                self.port = port
                break
            }
        }

        func stop() async {
            release()
            await group?.triggerGracefulShutdown()
        }
    }

    static func feedPage(_ ids: Range<Int>, next: String? = nil) -> String {
        let items = ids.map {
            #"{"id":"r\#($0)","title":"远程 Remote \#($0)","price":"¥9","img":"r.jpg","jump":{"url":"app://p/r\#($0)"}}"#
        }
        return
            #"{"floors":[{"type":"ProductFeed","id":"remote","items":[\#(items.joined(separator: ","))]}],"next":\#(next.map { "\"\($0)\"" } ?? "null")}"#
    }

    /// A preview over `fixture` that may load next pages from `server`'s origin.
    static func preview(
        _ fixture: ServeFixture, _ server: FeedServer, policy: RetryPolicy = RetryPolicy(),
        timeout: Double = RemotePageClient.defaultTimeout
    ) throws -> Preview {
        let client = RemotePageClient(
            timeout: timeout, rules: OriginRules(allowed: [PageOrigin(argument: server.origin)!]))
        return Preview(
            host: fixture.preview.host, root: try PageRoot(folder: fixture.pages), rootArgument: fixture.pages,
            remote: client, retryPolicy: policy)
    }

    @Test func aHeldNextPageDoesNotHoldTheTabsRequests() async throws {
        let server = FeedServer()
        try await server.start()
        let fixture = try ServeFixture()
        server.page("one.json", Self.feedPage(0..<12), held: true)
        try fixture.write(
            "short.json",
            #"{"floors":[{"type":"Title","id":"t","title":"短页 Short"}],"next":"\#(server.origin)/feed/one.json"}"#)
        // The page is held until release(), however long a loaded machine takes to get there: the client's
        // own 10-second timeout would fail the load first (seen under a full parallel test run).
        let preview = try Self.preview(fixture, server, timeout: 600)
        let id = preview.open(fixture.pages + "/short.json", phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        // The server holds the page: every report of the tab is still answered, and nothing else starts.
        #expect(await PreviewSessionTests.push("one.json", on: server.arrivals), "the load reached the server")
        var view = try PreviewSessionTests.view(preview, id, offset: 0, version: -1)
        for offset in [0.0, 40, 0, 80] {
            view = try PreviewSessionTests.view(preview, id, offset: offset, version: view.version)
            #expect(view.load == "loading")
        }
        #expect(server.requests == ["one.json"])
        server.release()
        #expect(await PreviewSessionTests.push("changed", on: pushes))
        view = try PreviewSessionTests.view(preview, id, offset: 0, version: view.version)
        #expect(view.load == "end")
        #expect(view.rows.contains { ($0["html"] as! String).contains("远程 Remote 0") })
        #expect(server.requests == ["one.json"])
        preview.endPushes()
        await server.stop()
    }

    /// A one-floor page whose next page is served from `server` and answers 503 `failures` times first,
    /// opened in a preview retrying by `policy`.
    static func shortPageBeforeAFlakyFeed(failures: Int, policy: RetryPolicy) async throws
        -> (FeedServer, ServeFixture, Preview, String, AsyncStream<String>)
    {
        let server = FeedServer()
        try await server.start()
        let fixture = try ServeFixture()
        server.page("flaky.json", feedPage(0..<12), failures: failures)
        try fixture.write(
            "short.json",
            #"{"floors":[{"type":"Title","id":"t","title":"短页 Short"}],"next":"\#(server.origin)/feed/flaky.json"}"#)
        let preview = try preview(fixture, server, policy: policy)
        let id = preview.open(fixture.pages + "/short.json", phone: .standard)
        let pushes = try #require(preview.subscribe(id))
        return (server, fixture, preview, id, pushes)
    }

    @Test func aWaitingRetryIsShownWithItsReasonAndRetryNowStartsIt() async throws {
        // The retry waits 15 to 30 s (the backoff is capped at 30 s): only "retry now" brings the page in time.
        let (server, fixture, preview, id, pushes) = try await Self.shortPageBeforeAFlakyFeed(
            failures: 1, policy: RetryPolicy(attempts: 1, base: 60))
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the first page
        // The first attempt started when the page opened; when it failed before the tab subscribed, its push
        // went to nobody, and the tab's first look shows the retry already.
        var view = try PreviewSessionTests.view(preview, id, offset: 0, version: -1)
        // Each push is one change ("loading" as the attempt starts, then its failure): look after each
        // until the failure and its retry show.
        while (view.object["load"] as? [String: Any])?["retryIn"] == nil {
            guard await PreviewSessionTests.push("changed", on: pushes) else {
                Issue.record("the first attempt's failure was never pushed")
                break
            }
            view = try PreviewSessionTests.view(preview, id, offset: 0, version: view.version)
        }
        let load = try #require(view.object["load"] as? [String: Any])
        #expect(view.load == "loading")
        let retryIn = try #require((load["retryIn"] as? NSNumber)?.doubleValue)
        #expect(retryIn > 10 && retryIn <= 30)
        #expect((load["reason"] as? String)?.hasSuffix("the server answered 503 Service Unavailable") == true)
        #expect(preview.retry(id))
        // The tab is told that the retry started ("loading"), then that the page arrived.
        while view.load == "loading" {
            guard await PreviewSessionTests.push("changed", on: pushes) else {
                Issue.record("the retried load never arrived")
                break
            }
            view = try PreviewSessionTests.view(preview, id, offset: 0, version: view.version)
        }
        #expect(view.load == "end")
        #expect(server.requests == ["flaky.json", "flaky.json"])
        preview.endPushes()
        await server.stop()
    }

    @Test func theRetryButtonWorksAfterThePolicyGaveUp() async throws {
        // One retry, after 5 to 10 ms: 503, 503, and the policy gives up.
        let (server, fixture, preview, id, pushes) = try await Self.shortPageBeforeAFlakyFeed(
            failures: 3, policy: RetryPolicy(attempts: 1, base: 0.01))
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the first page
        var view = try PreviewSessionTests.view(preview, id, offset: 0, version: -1)
        while view.load == "loading" {
            #expect(await PreviewSessionTests.push("changed", on: pushes))
            view = try PreviewSessionTests.view(preview, id, offset: 0, version: view.version)
        }
        #expect(view.load == "failed")
        #expect(server.requests == ["flaky.json", "flaky.json"])
        // The button: 503 once more, the policy's retry, then the page.
        #expect(preview.retry(id))
        while view.load != "end" {
            #expect(await PreviewSessionTests.push("changed", on: pushes))
            view = try PreviewSessionTests.view(preview, id, offset: 0, version: view.version)
            if view.load == "failed" {
                Issue.record("failed again: \(view.object)")
                break
            }
        }
        #expect(view.rows.contains { ($0["html"] as! String).contains("远程 Remote 0") })
        #expect(server.requests.count == 4)
        preview.endPushes()
        await server.stop()
    }
}
