import FloorServe
import Foundation
import Hummingbird
import Testing

@testable import FloorServe

/// Requests another web site can make a browser send (DNS rebinding, a cross-site form or fetch) against a
/// real server on loopback, written byte by byte: only the preview's own names are answered, and only its
/// own pages open or drive sessions.
struct ForeignRequestTests {
    /// The server bound to 127.0.0.1 (any port), answering also to preview.example.com.
    static func withServer(_ body: @escaping @Sendable (Int, ServeFixture) throws -> Void) async throws {
        let fixture = try ServeFixture()
        try await withLiveServer(
            { onRunning in
                PreviewServer.application(
                    fixture.preview, services: [], host: "127.0.0.1", port: 0, allowedHosts: ["preview.example.com"],
                    onRunning: onRunning)
            }, { port in try body(port, fixture) })
    }

    static func request(_ port: Int, _ lines: [String], body: String = "") throws -> (status: Int, body: String) {
        var text = lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n"
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        let answer = try #require(try RawHTTP.exchange(port: port, text + "\r\n" + body), "\(lines)")
        return (answer.status, answer.body)
    }

    @Test func aForeignHostIsRefusedAndOwnNamesAreAnswered() async throws {
        try await Self.withServer { port, _ in
            for host in ["evil.example.com", "evil.example.com:\(port)", "127.0.0.1.evil.example", "localhost.evil"] {
                let answer = try Self.request(port, ["GET /layout/home.json HTTP/1.1", "Host: \(host)"])
                #expect(answer.status == 403, "\(host)")
                #expect(answer.body.contains("the request's Host is none of them"), "\(host)")
                #expect(!answer.body.contains("floors"), "\(host)")
            }
            for host in [
                "127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "tab.localhost:\(port)",
                "preview.example.com",
            ] {
                let answer = try Self.request(port, ["GET /layout/home.json HTTP/1.1", "Host: \(host)"])
                #expect(answer.status == 200, "\(host): \(answer.body)")
            }
        }
    }

    @Test func aRequestWithoutHostIs400() async throws {
        try await Self.withServer { port, _ in
            for head in ["GET / HTTP/1.1", "GET / HTTP/1.0"] {
                let answer = try Self.request(port, [head])
                #expect(answer.status == 400, "\(head)")
                #expect(answer.body == #"{"error":"the request has no Host header (HTTP/1.1 needs one)"}"# + "\n")
            }
        }
    }

    /// A foreign Origin or Sec-Fetch-Site may not open a session (GET /page/...) or post to one; the same
    /// requests from the preview's own pages (or typed in) are answered.
    @Test func anotherSiteMayNotOpenOrDriveASession() async throws {
        try await Self.withServer { port, fixture in
            let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
            let view = #"{"offset":0,"version":-1}"#
            let host = "Host: 127.0.0.1:\(port)"
            let foreign: [[String]] = [
                ["Origin: http://evil.com"], ["Origin: null"], ["Origin: http://127.0.0.1:1"],
                ["Origin: http://localhost:\(port)"], ["Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"],
                ["Origin: http://127.0.0.1:\(port)", "Sec-Fetch-Site: cross-site"],
            ]
            for headers in foreign {
                let post = try Self.request(
                    port, ["POST /api/sessions/\(id)/view HTTP/1.1", host, "Content-Type: text/plain"] + headers,
                    body: view)
                #expect(post.status == 403, "\(headers)")
                #expect(post.body.contains("may not open or change a preview session"), "\(headers)")
                let page = try Self.request(port, ["GET /page/home.json HTTP/1.1", host] + headers)
                #expect(page.status == 403, "\(headers)")
            }
            let own: [[String]] = [
                [], ["Origin: http://127.0.0.1:\(port)", "Sec-Fetch-Site: same-origin"], ["Sec-Fetch-Site: none"],
                ["Origin: https://preview.example.com"],
            ]
            for headers in own {
                let post = try Self.request(
                    port, ["POST /api/sessions/\(id)/view HTTP/1.1", host, "Content-Type: application/json"] + headers,
                    body: view)
                #expect(post.status == 200, "\(headers): \(post.body)")
                let page = try Self.request(port, ["GET /page/home.json HTTP/1.1", host] + headers)
                #expect(page.status == 200, "\(headers)")
            }
            // Reading needs no Origin check (the browser keeps another site from reading the answer); the
            // Host check is what stops a rebound name.
            let read = try Self.request(
                port, ["GET /layout/home.json HTTP/1.1", host, "Origin: http://evil.com", "Sec-Fetch-Site: cross-site"])
            #expect(read.status == 200)
        }
    }

    @Test func bindingBeyondLoopbackWarnsWhoCanReachIt() {
        #expect(PreviewServer.exposureWarning(host: "127.0.0.1", port: 8080, allowedHosts: []) == nil)
        #expect(PreviewServer.exposureWarning(host: "::1", port: 8080, allowedHosts: []) == nil)
        let any = PreviewServer.exposureWarning(host: "0.0.0.0", port: 8080, allowedHosts: [])
        #expect(any?.contains("anyone who can reach any address of this machine") == true)
        #expect(any?.contains("reverse proxy with authentication") == true)
        let one = PreviewServer.exposureWarning(host: "192.0.2.7", port: 9000, allowedHosts: ["box.lan"])
        #expect(one?.contains("listening on 192.0.2.7 port 9000: anyone who can reach 192.0.2.7") == true)
    }
}
