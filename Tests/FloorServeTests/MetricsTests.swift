import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// `GET /metrics` (ServeMetrics): Prometheus' text format, each series what the server did.
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

    @Test func requestsSessionsAndStreamsAreCountedByRoute() async throws {
        let fixture = try ServeFixture()
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            var session = ""
            for _ in 0..<3 {
                session = try await client.execute(uri: "/page/home.json", method: .get) {
                    String(String(buffer: $0.body).firstMatch(of: #/FLOOR_SESSION = "([^"]+)"/#)!.1)
                }
            }
            _ = try await client.execute(uri: "/page/missing.json", method: .get) { $0.status }
            _ = try await client.execute(
                uri: "/api/sessions/\(session)/view", method: .post,
                body: ByteBuffer(string: #"{"offset":0,"version":-1}"#)
            ) { $0.status }
            let text = try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                return String(buffer: response.body)
            }
            let s = Self.samples(text)
            #expect(s[#"floorkit_serve_request_duration_seconds_count{route="page"}"#] == 4)
            #expect(s[#"floorkit_serve_responses_total{route="page",status="2xx"}"#] == 3)
            #expect(s[#"floorkit_serve_responses_total{route="page",status="4xx"}"#] == 1)
            #expect(s[#"floorkit_serve_responses_total{route="view",status="2xx"}"#] == 1)
            #expect(s["floorkit_serve_sessions"] == 3)
            #expect(s["floorkit_serve_event_streams"] == 0)
            #expect(s["floorkit_serve_worker_restarts_total"] == 0)
            #expect((s[#"floorkit_serve_memory_bytes{process="server",kind="heap"}"#] ?? 0) > 1_000_000)
            #expect((s[#"floorkit_serve_memory_bytes{process="server",kind="rss"}"#] ?? 0) > 1_000_000)
            // In process there is no worker, so no worker lines.
            #expect(!text.contains(#"process="worker""#))
            // Routes, never paths: the session id is not a label.
            #expect(!text.contains(session))
        }
    }

    /// The real server: a foreign Host refused, its worker's memory, an open event stream, and a plugin change counted as a restart.
    @Test func aServeProcessCountsItsWorkerStreamsAndRestarts() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(arguments: [
            "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json", "--port", "0",
            fixture.pages,
        ])
        defer { server.stop() }
        let port = Int(server.url.split(separator: ":").last!.dropLast())!
        func metrics() throws -> [String: Double] {
            let answer = try #require(
                try RawHTTP.exchange(
                    port: port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
            #expect(answer.status == 200)
            return Self.samples(answer.body)
        }
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
        let server = try RunningServer(arguments: [
            "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json", "--port", "0",
            fixture.pages,
        ])
        defer { server.stop() }
        let port = Int(server.url.split(separator: ":").last!.dropLast())!
        func metrics() throws -> [String: Double] {
            let answer = try #require(
                try RawHTTP.exchange(
                    port: port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
            return Self.samples(answer.body)
        }
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
