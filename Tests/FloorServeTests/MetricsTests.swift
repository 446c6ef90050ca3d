import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import FloorServe

/// `GET /metrics` (ServeMetrics): Prometheus' text format, each series what the server did.
@Suite(.serialized)
struct MetricsTests {
    /// The samples of an exposition, by series (`name{labels}`), after checking every line's shape: a
    /// `# HELP` or `# TYPE` line, or `series value`, and a TYPE line for every name sampled.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        var typed = Set<String>()
        let sample = #/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|\+Inf|NaN)$/#
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                typed.insert(String(line.split(separator: " ")[2]))
            } else if line.hasPrefix("# HELP ") {
                continue
            } else if let m = try? sample.wholeMatch(in: String(line)) {
                let name = String(m.1)
                let family = ["_bucket", "_sum", "_count"].reduce(name) {
                    $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0
                }
                #expect(typed.contains(family) || typed.contains(name), "no TYPE line for \(name)")
                samples[name + (m.2.map(String.init) ?? "")] = Double(m.3)
            } else {
                Issue.record("not an exposition line: \(line)")
            }
        }
        return samples
    }

    /// A real server's `/metrics` over loopback, answered 200, as samples.
    static func scrape(port: Int) throws -> [String: Double] {
        let answer = try #require(
            try RawHTTP.exchange(port: port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        #expect(answer.status == 200)
        return samples(answer.body)
    }

    @Test func requestsSessionsAndLiveTabsAreCountedByRoute() async throws {
        let fixture = try ServeFixture()
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            func metrics() async throws -> [String: Double] {
                try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                    let text = String(buffer: response.body)
                    // In process there is no worker, so no worker lines.
                    #expect(!text.contains("worker_memory_age") && !text.contains(#"process="worker""#))
                    return Self.samples(text)
                }
            }
            let pageCount = #"floorkit_serve_request_duration_seconds_count{route="page"}"#
            let before = try await metrics()
            #expect(before["floorkit_serve_sessions"] == 0)
            #expect(before[pageCount] == 0)
            var sessions: [String] = []
            for opened in 1...3 {
                sessions.append(
                    try await client.execute(uri: "/page/home.json", method: .get) {
                        String(String(buffer: $0.body).firstMatch(of: #/FLOOR_SESSION = "([^"]+)"/#)!.1)
                    })
                #expect(try await metrics()["floorkit_serve_sessions"] == Double(opened), "one per page opened")
            }
            _ = try await client.execute(uri: "/page/missing.json", method: .get) { $0.status }
            _ = try await client.execute(
                uri: "/api/sessions/\(sessions[0])/view", method: .post,
                body: ByteBuffer(string: #"{"offset":0,"version":-1}"#)
            ) { $0.status }
            let text = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            let s = Self.samples(text)
            #expect(s[pageCount] == 4, "four page requests, each timed once")
            #expect(s[#"floorkit_serve_responses_total{route="page",status="2xx"}"#] == 3)
            #expect(s[#"floorkit_serve_responses_total{route="page",status="4xx"}"#] == 1)
            #expect(s[#"floorkit_serve_responses_total{route="view",status="2xx"}"#] == 1)
            #expect(s[#"floorkit_serve_request_duration_seconds_count{route="metrics"}"#] == 4)
            #expect(s["floorkit_serve_sessions"] == 3)
            #expect(s["floorkit_serve_live_tabs"] == 1, "only the tab that reported its view is live")
            #expect(s["floorkit_serve_event_streams"] == 0)
            #expect(s["floorkit_serve_worker_restarts_total"] == 0)
            #expect((s[#"floorkit_serve_memory_bytes{process="server",kind="heap"}"#] ?? 0) > 1_000_000)
            #expect((s[#"floorkit_serve_memory_bytes{process="server",kind="rss"}"#] ?? 0) > 1_000_000)
            // Routes, never paths: no session id and no file name is a label.
            #expect(!sessions.contains { text.contains($0) } && !text.contains("home.json"))
        }
    }

    /// The server's closes by reason, as `/metrics` on `port` says.
    static func closes(_ port: Int) throws -> [String: Double] {
        let s = try scrape(port: port)
        return Dictionary(
            uniqueKeysWithValues: ["cap", "header_timeout", "body_too_large"].map {
                ($0, s[#"floorkit_serve_connections_closed_total{reason="\#($0)"}"#] ?? -1)
            })
    }

    /// Connections the server closed itself, by why, on real servers on loopback with small limits.
    @Test func connectionsClosedAtTheCapOrForTimeOrSizeAreCounted() async throws {
        // Read off the test's task (withLiveServer's body runs off the pool), checked here.
        let seen = Mutex<[String: [String: Double]]>([:])
        try await ConnectionLimitTests.withServer(headerTimeout: .seconds(1)) { port, _, _ in
            let slow = try RawHTTP(port: port)
            slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            _ = slow.readToEnd()
            let closes = try Self.closes(port)
            seen.withLock { $0["timeout"] = closes }
        }
        try await ConnectionLimitTests.withServer(maxConnections: 2) { port, _, connections in
            let large = try RawHTTP.exchange(
                port: port,
                "POST /api/sessions/x/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n")
            guard large?.status == 413, eventually(seconds: 90, { connections.count == 0 ? true : nil }) == true
            else { return }
            var slow: [RawHTTP] = []
            for opened in 1...2 {
                slow.append(try RawHTTP(port: port))
                slow.last!.send("GET / HTTP/1.1\r\n")
                guard eventually(seconds: 90, { connections.count == opened ? true : nil }) == true else { return }
            }
            // The scrape's own connection is the third: the oldest slow one makes room for it.
            let closes = try Self.closes(port)
            seen.withLock { $0["cap"] = closes }
            withExtendedLifetime(slow) {}
        }
        let closes = seen.withLock { $0 }
        #expect(closes["timeout"] == ["cap": 0, "header_timeout": 1, "body_too_large": 0])
        #expect(closes["cap"] == ["cap": 1, "header_timeout": 0, "body_too_large": 1], "a 413, then one at the cap")
    }

    /// A worker stuck in a plugin call does not hold up `/metrics`: the scrape gives the last reading while
    /// the call is still running, then the fresh worker's, with the restart counted.
    @Test func aBusyWorkerDoesNotHoldUpTheScrape() throws {
        let setup = try WorkerPreviewTests.Setup(plugins: ["Title"], callTimeout: 10)
        try setup.compileBadge(to: setup.folder + "/libBadgeFloor.so", defines: ["CRASHES_ON_DATA"])
        try WorkerPreviewTests.Setup.secure(setup.folder)
        setup.preview.checkPlugins()
        let restarts = setup.preview.health().workerRestarts
        try setup.fixture.write(
            "hang.json", #"{"floors":[{"type":"Badge","id":"stuck","text":"hang:cell"}]}"#)
        let id = setup.preview.open(setup.fixture.pages + "/hang.json", phone: .standard)
        var last = try #require(setup.preview.health().workerMemory, "a free worker answers").read
        let finished = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        Thread {
            _ = setup.preview.view(id, offset: 0, knownVersion: -1)
            finished.signal()
            // The fresh worker was started on this thread, and a worker dies with the thread that started
            // it (PR_SET_PDEATHSIG, ChildProcess.dieWithParent): kept until the test ends.
            release.wait()
        }.start()
        // Once the view request holds the hung worker, a scrape gives the reading it had before.
        let stale = eventually(seconds: 8) {
            let reading = setup.preview.health().workerMemory
            defer { last = reading?.read ?? last }
            return reading?.read == last ? true : nil
        }
        #expect(stale == true, "a scrape behind a hung call gives the last reading")
        #expect(finished.wait(timeout: .now()) == .timedOut, "and did not wait for the hung call")
        #expect(finished.wait(timeout: .now() + 60) == .success, "the hung worker is replaced after 10 s")
        let after = setup.preview.health()
        #expect(after.workerRestarts == restarts + 1)
        #expect(try #require(after.workerMemory).read > last, "the fresh worker is asked")
    }

    /// The real server: a foreign Host refused, its worker's memory, an open event stream, and a plugin change counted as a restart.
    @Test func aServeProcessCountsItsWorkerStreamsAndRestarts() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        let port = server.port
        func metrics() throws -> [String: Double] { try Self.scrape(port: port) }
        let foreign = try #require(
            try RawHTTP.exchange(
                port: port, "GET /metrics HTTP/1.1\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n"))
        #expect(foreign.status == 403, "a foreign Host is refused, as on every route")
        let page = try #require(
            try RawHTTP.exchange(
                port: port, "GET /page/home.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        let session = String(try #require(page.body.firstMatch(of: #/FLOOR_SESSION = "([^"]+)"/#)).1)
        let stream = try RawHTTP(port: port)
        stream.send("GET /api/sessions/\(session)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let open = eventually(seconds: 30) { (try? metrics())?["floorkit_serve_event_streams"] == 1 ? true : nil }
        #expect(open == true, "the open event stream is counted")
        let before = try metrics()
        #expect((before[#"floorkit_serve_memory_bytes{process="worker",kind="heap"}"#] ?? 0) > 100_000)
        #expect((before[#"floorkit_serve_memory_bytes{process="worker",kind="rss"}"#] ?? 0) > 1_000_000)
        #expect(before["floorkit_serve_worker_restarts_total"] == 0)
        #expect((before["floorkit_serve_worker_memory_age_seconds"] ?? 99) < 5, "read at this scrape")
        try FileManager.default.removeItem(atPath: fixture.plugins + "/libFocusFloor.so")
        let restarted = eventually(seconds: 30) {
            (try? metrics())?["floorkit_serve_worker_restarts_total"] == 1 ? true : nil
        }
        #expect(restarted == true, "the plugin change started a fresh worker, counted once")
        withExtendedLifetime(stream) {}
    }

    /// A request the client cut off with its FIN leaves nothing behind (ConnectionGuard.errorCaught): each
    /// such connection used to keep its channel, buffers and task, about 2.4 KB. The server's heap after
    /// three rounds of 1,000 of them is within 300 bytes a connection of where it was after the first.
    @Test func requestsCutOffByTheirClientLeaveNothingBehind() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        let port = server.port
        func metrics() throws -> [String: Double] { try Self.scrape(port: port) }
        func round() throws {
            var clients: [RawHTTP] = []
            for _ in 0..<1_000 {
                let client = try RawHTTP(port: port)
                client.send("GET /page/home.json HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: cut")
                clients.append(client)
            }
            #expect(
                eventually(seconds: 30) { (try? metrics())?["floorkit_serve_connections"] ?? 0 > 900 ? true : nil }
                    == true)
            clients.removeAll()  // each closes its socket: a FIN after part of a request
            #expect(
                eventually(seconds: 30) { (try? metrics())?["floorkit_serve_connections"] ?? 99 <= 1 ? true : nil }
                    == true)
        }
        let heap = #"floorkit_serve_memory_bytes{process="server",kind="heap"}"#
        try round()
        let first = try #require(try metrics()[heap])
        try round()
        try round()
        let third = try #require(try metrics()[heap])
        #expect(third - first < 2 * 1_000 * 300, "the heap grew \(Int(third - first)) bytes over 2,000 connections")
    }
}
