import FloorServe
import FloorSession
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// `floorhost serve` through HummingbirdTesting's client (the router framework: no socket is bound, and
/// the server is gone when `test` returns).
struct ServeRoutesTests {
    static func app(_ fixture: ServeFixture) -> some ApplicationProtocol {
        Application(router: ServeRoutes.router(fixture.preview))
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func theIndexListsPagesUnderTheRootAndMarksNextPages() async throws {
        let fixture = try ServeFixture()
        try fixture.write("notes.json", #"{"not":"a page"}"#)
        try FileManager.default.createDirectory(atPath: fixture.pages + "/sub", withIntermediateDirectories: true)
        try fixture.write("sub/deals <1>.json", #"{"title":"特价 <b>","floors":[]}"#)
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                let html = Self.text(response)
                #expect(html.contains(#"<a href="/page/home.json">home.json</a> <span class="ttl">首页 Home</span>"#))
                #expect(
                    html.contains(
                        #"<a href="/page/home-2.json">home-2.json</a> <span class="meta">1 floor</span> <span class="next">next page of home.json</span>"#
                    ))
                #expect(html.contains(#"<span class="next">next page of home-2.json</span>"#))
                #expect(!html.contains("notes.json"))
                // Each first page before its next pages, in the order they load.
                let order = ["page/home.json\"", "page/home-2.json\"", "page/home-3.json\""].map {
                    html.range(of: $0)?.lowerBound
                }
                #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! })
                #expect(
                    html.contains(
                        #"<a href="/page/sub/deals%20%3C1%3E.json">sub/deals &lt;1&gt;.json</a> <span class="ttl">特价 &lt;b&gt;</span>"#
                    ))
            }
        }
    }

    @Test func aPageIsServedInAPhoneFrameOfTheChosenWidth() async throws {
        let fixture = try ServeFixture()
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(uri: "/page/home.json?width=414", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = Self.text(response)
                #expect(html.contains(#"class="phone" style="width:414px""#))
                #expect(html.contains(#"<div class="screen" style="height:852px">"#))  // the default device's
                #expect(html.contains(#"<span class="navtitle">首页 Home</span>"#))
                #expect(html.contains(#"const FLOOR_SESSION = ""#))
                #expect(html.contains("<script src=\"\(ClientScript.address)\"></script>"))
                #expect(html.contains(#"<option value="custom" selected>Custom</option>"#))
            }
            // The client script, at the address pages name, kept by the browser.
            try await client.execute(uri: ClientScript.address, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(Self.text(response) == ClientScript.source)
            }
            // The default device, a named one, any width in range.
            let sizes = [
                ("/page/home.json", "width:393px", "height:852px"),
                ("/page/home.json?device=iphone-se", "width:320px", "height:568px"),
                ("/page/home.json?device=ipad-mini", "width:744px", "height:1133px"),
                ("/page/home.json?width=390", "width:390px", "height:852px"),
                ("/page/home.json?width=280&height=600", "width:280px", "height:600px"),
            ]
            for (uri, width, height) in sizes {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let html = Self.text(response)
                    #expect(
                        html.contains("class=\"phone\" style=\"\(width)\"")
                            && html.contains("class=\"screen\" style=\"\(height)\""), "\(uri)")
                }
            }
            try await client.execute(uri: "/page/home.json", method: .get) { response in
                #expect(
                    Self.text(response).contains(
                        #"<option value="iphone-16" data-width="393" data-height="852" selected>"#))
            }
            // Out of range or unknown: a page that says so and lists the devices, not raw JSON.
            let refused = [
                ("/page/home.json?width=1200", "width &#39;1200&#39; is not a width in points from 280 to 1,024"),
                ("/page/home.json?width=abc", "width &#39;abc&#39; is not a width in points"),
                ("/page/home.json?height=99", "height &#39;99&#39; is not a screen height in points from 320 to 1,366"),
                ("/page/home.json?device=nokia-3310", "there is no device &#39;nokia-3310&#39;; one of: iphone-se, "),
            ]
            for (uri, message) in refused {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                    let html = Self.text(response)
                    #expect(html.contains(message), "\(uri): \(html)")
                    #expect(html.contains(#"<a href="/page/home.json?device=iphone-16">iPhone 16</a>"#), "\(uri)")
                }
            }
        }
    }

    /// Whatever the way out of the root, the answer is the same 404 and quotes nothing of the request.
    @Test func pathsOutOfTheRootAreOneQuiet404() async throws {
        let fixture = try ServeFixture()
        let outside = fixture.folder + "/secret.json"
        try #"{"floors":[]}"#.write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: fixture.pages + "/link.json", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: fixture.pages + "/up", withDestinationPath: fixture.folder)
        try FileManager.default.createDirectory(
            atPath: fixture.pages + "/folder.json", withIntermediateDirectories: true)
        #expect(mkfifo(fixture.pages + "/fifo.json", 0o600) == 0)
        let refused = [
            "/page/../../etc/passwd", "/page/..%2F..%2Fetc%2Fpasswd", "/page/%2e%2e/%2e%2e/etc/passwd",
            "/page/%2Fetc%2Fpasswd", "/page//etc/passwd", "/page/link.json", "/page/up/secret.json",
            "/page/folder.json", "/page/fifo.json", "/page/missing.json", "/page/home.json%00",
            "/layout/..%2Fsecret.json", "/layout/link.json", "/page/", "/nothing/here",
        ]
        try await Self.app(fixture).test(.router) { client in
            for uri in refused {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(Self.text(response) == #"{"error":"no such page"}"# + "\n", "\(uri)")
                }
            }
        }
    }

    /// `/layout/<path>` is byte for byte what the CLI prints for the same file.
    @Test func layoutIsWhatTheCLIPrints() async throws {
        let fixture = try ServeFixture()
        let cli = try runFloorhost([
            "--no-plugin-isolation", "--plugins", fixture.plugins, fixture.pages + "/home.json", "--format", "json",
        ])
        #expect(cli.status == 0)
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(uri: "/layout/home.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(Self.text(response) == cli.stdout)
            }
        }
    }

    @Test func aMalformedPageShowsItsPositionInsteadOfThePage() async throws {
        let fixture = try ServeFixture()
        try fixture.write("broken.json", "{\"floors\": [\n  {\"type\": \"Title\" \"id\": \"t\"}\n]}")
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(uri: "/page/broken.json", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(
                    Self.text(response).contains(
                        "<div id=\"error\" class=\"pageerror\"><div class=\"what\">broken.json:2:20: "))
            }
            try await client.execute(uri: "/layout/broken.json", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                let body = Self.text(response)
                #expect(body.hasPrefix(#"{"error":""# + fixture.pages + "/broken.json:2:20: "))
                #expect(body.hasSuffix("\"}\n") && body.filter { $0 == "\n" }.count == 1)
            }
        }
    }

    @Test func theSessionAPIRefusesBadRequestsWithOneLineOfJSON() async throws {
        let fixture = try ServeFixture()
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(
                uri: "/api/sessions/nope/view", method: .post, body: ByteBuffer(string: #"{"offset":0,"version":0}"#)
            ) { response in
                #expect(response.status == .notFound)
                #expect(Self.text(response).hasPrefix(#"{"error":"no such session"#))
            }
            let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
            for body in ["", "{", #"{"offset":"x","version":0}"#] {
                try await client.execute(uri: "/api/sessions/\(id)/view", method: .post, body: ByteBuffer(string: body))
                { response in
                    #expect(response.status == .badRequest)
                    #expect(
                        Self.text(response) == #"{"error":"the body must be JSON {\"offset\":Y,\"version\":V}"}"# + "\n"
                    )
                }
            }
            // Over the 16 KB every request of the preview fits in: 413, whatever the body.
            try await client.execute(
                uri: "/api/sessions/\(id)/view", method: .post,
                body: ByteBuffer(string: String(repeating: " ", count: 20_000))
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(Self.text(response) == #"{"error":"the request body is larger than 16384 bytes"}"# + "\n")
            }
            try await client.execute(
                uri: "/api/sessions/\(id)/tap", method: .post, body: ByteBuffer(string: #"{"row":1,"x":10}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(
                    Self.text(response).hasPrefix(
                        #"{"error":"no action: row 0:1 (FocusMargin of floor 'focus') is not tappable"#))
            }
        }
    }

    /// A tap on a row of the served page gives the action `--tap` prints for that item.
    @Test func aTapGivesTheItemsAction() async throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
        // Row 2 is the first icon line (5 icons): x = 200 of 375 points is the third icon.
        let cli = try runFloorhost([
            "--no-plugin-isolation", "--plugins", fixture.plugins, fixture.pages + "/home.json", "--tap", "1:0:2",
        ])
        try await Self.app(fixture).test(.router) { client in
            try await client.execute(
                uri: "/api/sessions/\(id)/tap", method: .post, body: ByteBuffer(string: #"{"row":2,"x":200}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(Self.text(response) == cli.stdout)
            }
        }
    }
}

/// The built floorhost binary with `arguments` and a scan cache of the tests' own, not started.
func floorhostProcess(_ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ServeRepo.buildDirectory + "/floorhost")
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["FLOORKIT_PLUGIN_CACHE"] = NSTemporaryDirectory() + "floorserve-tests-plugin-scan.json"
    process.environment = environment
    return process
}

/// Runs the built floorhost binary to completion; its status and stdout.
func runFloorhost(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
    let process = floorhostProcess(arguments)
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

extension ServeRoutesTests {
    /// --access-log: a line per request, refusals included, with method, path, status and time.
    @Test func theAccessLogHasALinePerRequest() async throws {
        let fixture = try ServeFixture()
        let log = fixture.folder + "/access.log"
        let write = try AccessLog<ServeContext>.destination(log)
        let app = Application(router: ServeRoutes.router(fixture.preview, accessLog: write))
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/page/../secret.json", method: .get) { #expect($0.status == .notFound) }
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains(" GET /healthz 200 ") == true, "\(lines)")
        #expect(lines.last?.contains(" GET /page/../secret.json 404 ") == true, "\(lines)")
        #expect(lines.allSatisfy { $0.hasSuffix(" ms") })
    }
}
