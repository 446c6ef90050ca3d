import FloorServe
import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import FloorServe

#if canImport(Glibc)
import Glibc
#endif

/// What one client may hold of the server (ConnectionLimits), on a real server on loopback with small
/// limits, written byte by byte with RawHTTP.
struct ConnectionLimitTests {
    static func withServer(
        maxConnections: Int = 4_096, headerTimeout: TimeAmount = .seconds(60),
        _ body: @escaping @Sendable (Int, ServeFixture, OpenConnections) throws -> Void
    ) async throws {
        let fixture = try ServeFixture()
        var limits = ConnectionLimits()
        limits.maxConnections = maxConnections
        limits.headerTimeout = headerTimeout
        let connections = OpenConnections(limits: limits)
        try await withLiveServer(
            { onRunning in
                PreviewServer.application(
                    fixture.preview, services: [], host: "127.0.0.1", port: 0, connections: connections,
                    onRunning: onRunning)
            }, { port in try body(port, fixture, connections) })
    }

    @Test func aClientThatDoesNotFinishItsHeadersIsClosed() async throws {
        try await Self.withServer(headerTimeout: .seconds(1)) { port, _, _ in
            let slow = try RawHTTP(port: port)
            slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let (text, closed) = slow.readToEnd()
            #expect(closed && text.isEmpty, "closed with no answer")
            // An idle keep-alive connection too, once its answer is sent.
            let idle = try RawHTTP(port: port)
            idle.send("GET /serve.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(idle.readResponse()?.status == 200)
            #expect(idle.readToEnd().closed)
        }
    }

    /// At the cap, a new connection closes the oldest one still sending its headers, and is answered.
    @Test func atTheCapTheOldestSlowClientMakesRoom() async throws {
        try await Self.withServer(maxConnections: 4) { port, _, connections in
            var slow: [RawHTTP] = []
            for _ in 0..<4 {
                let connection = try RawHTTP(port: port)
                connection.send("GET / HTTP/1.1\r\n")
                slow.append(connection)
                let opened = slow.count
                #expect(eventually(seconds: 90) { connections.count == opened ? true : nil } == true)
            }
            let answer = try RawHTTP.exchange(
                port: port, "GET /serve.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer?.status == 200)
            #expect(slow[0].readToEnd().closed, "the oldest slow client was closed")
            #expect(connections.count <= 4)
        }
    }

    @Test func aBodyOverTheLimitIs413WithoutReadingIt() async throws {
        try await Self.withServer { port, fixture, _ in
            let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
            // Only the headers of a 200 MB body are sent: the answer comes without the body.
            let big = try RawHTTP(port: port)
            big.send(
                "POST /api/sessions/\(id)/view HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200000000\r\n"
                    + "Content-Type: application/json\r\n\r\n")
            let answer = try #require(big.readResponse())
            #expect(answer.status == 413)
            #expect(answer.body.contains("the request body is larger than 16384 bytes"))
            #expect(big.readToEnd().closed)
            // A chunked body that grows past the limit: 413 too, and the connection is closed.
            let chunked = try RawHTTP(port: port)
            let chunk = String(repeating: " ", count: 10_000)
            chunked.send(
                "POST /api/sessions/\(id)/view HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "2710\r\n\(chunk)\r\n2710\r\n\(chunk)\r\n")
            #expect(chunked.readResponse()?.status == 413)
            #expect(chunked.readToEnd().closed)
        }
    }

    @Test func healthzSaysTheServerIsUp() async throws {
        try await Self.withServer { port, _, _ in
            let answer = try RawHTTP.exchange(
                port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer?.status == 200)
            #expect(answer?.body == #"{"ok":true}"# + "\n")
        }
    }

    @Test func anHTTP10RequestWithoutKeepAliveIsClosedAfterItsAnswer() async throws {
        try await Self.withServer { port, _, _ in
            let old = try RawHTTP(port: port)
            old.send("GET /serve.js HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            let (text, closed) = old.readToEnd()
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.") && text.contains(" 200 "))
        }
    }

    /// A tab that goes (its connection closed) ends its push stream now, not at a ping (none comes here).
    @Test func aDroppedEventStreamEndsAtOnce() async throws {
        try await Self.withServer { port, fixture, connections in
            let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
            let tab = try RawHTTP(port: port)
            tab.send("GET /api/sessions/\(id)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var seen = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !seen.contains(": connected") {
                let n = recv(tab.fd, &buffer, buffer.count, 0)
                guard n > 0 else { break }
                seen += String(decoding: buffer[..<n], as: UTF8.self)
            }
            #expect(seen.contains(": connected"))
            #expect(fixture.preview.openPushStreams == 1)
            shutdown(tab.fd, Int32(SHUT_WR))  // the tab goes: the server reads its end
            #expect(eventually(seconds: 90) { fixture.preview.openPushStreams == 0 ? true : nil } == true)
            #expect(eventually(seconds: 90) { connections.count == 0 ? true : nil } == true)
        }
    }
}
