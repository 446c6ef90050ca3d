import FloorRender
import FloorRuntime
import FloorServe
import FloorSession
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// Real images in the preview (issue 19, item 2): a picture a page names is drawn when it can be had (a
/// file under the root, relative to the page; a URL on an allowed origin), its placeholder otherwise; image
/// files are served so that none can run script, and only from inside the root.
struct ImageTests {
    static let svg =
        #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script><rect width="8" height="8" fill="red"/></svg>"#

    /// A page whose products name `sources`, one each, and its fixture with images/a.svg under the root.
    static func page(_ sources: [String], preview: ((ServeFixture) -> Preview)? = nil) throws -> (
        ServeFixture, Preview, [String]
    ) {
        let fixture = try ServeFixture()
        try FileManager.default.createDirectory(atPath: fixture.pages + "/images", withIntermediateDirectories: true)
        try Self.svg.write(toFile: fixture.pages + "/images/a.svg", atomically: true, encoding: .utf8)
        let items = sources.enumerated().map { i, source in
            #"{"id":"p\#(i)","title":"P\#(i)","price":"¥1","img":"\#(source)"}"#
        }
        let file = try fixture.write(
            "pictures.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}]}"#)
        let chosen = preview?(fixture) ?? fixture.preview
        let id = chosen.open(file, phone: .standard)
        let view = try PreviewSessionTests.view(chosen, id, offset: 0, version: -1)
        let rows = view.rows.map { $0["html"] as! String }.filter { $0.contains("data-type=\"ProductCard\"") }
        return (fixture, chosen, rows)
    }

    @Test func aPictureUnderTheRootOrOnAnAllowedOriginIsDrawnAndAnyOtherIsAPlaceholder() throws {
        let sources = [
            "images/a.svg", "images/missing.svg", "https://img.example.com/p/1.jpg", "../outside.svg",
            "javascript:alert(1)", "images", "pictures.json", "https://other.example.com/x.png",
        ]
        let allowing: (ServeFixture) -> Preview = { fixture in
            Preview(
                host: fixture.preview.host, root: fixture.preview.root, rootArgument: fixture.pages,
                remote: RemotePageClient(
                    rules: OriginRules(allowed: [PageOrigin(argument: "https://img.example.com")!])))
        }
        let (fixture, _, rows) = try Self.page(sources, preview: allowing)
        try "<svg/>".write(toFile: fixture.folder + "/outside.svg", atomically: true, encoding: .utf8)
        #expect(rows.count == sources.count)
        func img(_ row: String) -> String? {
            row.firstMatch(of: #/<img src="([^"]*)"/#).map { String($0.output.1) }
        }
        #expect(
            rows.map(img) == ["/image/images/a.svg", nil, "https://img.example.com/p/1.jpg", nil, nil, nil, nil, nil])
        // Every row keeps its placeholder naming the source, under the picture or alone.
        #expect(rows.allSatisfy { $0.contains("<div class=\"img\"") && $0.contains("<span>") })
        // Without --allow-origin, a remote picture is a placeholder.
        let (_, _, plain) = try Self.page(["https://img.example.com/p/1.jpg"])
        #expect(plain.count == 1 && !plain[0].contains("<img"))
    }

    @Test func imageFilesAreServedSoThatNoneCanRunScriptAndOnlyFromTheRoot() async throws {
        let (fixture, preview, _) = try Self.page(["images/a.svg"])
        let outside = fixture.folder + "/secret.svg"
        try Self.svg.write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.pages + "/images/link.svg", withDestinationPath: outside)
        try FileManager.default.createDirectory(
            atPath: fixture.pages + "/images/dir.svg", withIntermediateDirectories: true)
        #expect(mkfifo(fixture.pages + "/images/fifo.svg", 0o600) == 0)
        try Data(count: 64).write(to: URL(fileURLWithPath: fixture.pages + "/images/big.png"))
        let small = Preview(
            host: preview.host, root: try PageRoot(folder: fixture.pages, maxPageBytes: 32), rootArgument: fixture.pages
        )
        try await Application(router: ServeRoutes.router(preview)).test(.router) { client in
            try await client.execute(uri: "/image/images/a.svg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(
                    response.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'; sandbox"
                )
                #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
                #expect(String(buffer: response.body) == Self.svg)
            }
            let refused = [
                "/image/images/link.svg", "/image/../secret.svg", "/image/..%2Fsecret.svg", "/image/images/dir.svg",
                "/image/images/fifo.svg", "/image/images/missing.svg", "/image/home.json", "/image/",
                "/image/%2Fetc%2Fpasswd",
            ]
            for uri in refused {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(String(buffer: response.body) == #"{"error":"no such image"}"# + "\n", "\(uri)")
                }
            }
        }
        try await Application(router: ServeRoutes.router(small)).test(.router) { client in
            try await client.execute(uri: "/image/images/big.png", method: .get) { response in
                #expect(response.status == .notFound)  // over --max-page-bytes
            }
        }
    }
}

/// ABI 1.5's fitted_image modes in the html canvas: FLOOR_IMAGE_FIT keeps the whole picture in its frame
/// (class `fit`, object-fit: contain in the preview), anything else fills it as 1.4's image does.
struct FittedImageTests {
    @Test func fitIsMarkedAndFillIsTheDefault() {
        // floor_abi/canvas.h: FLOOR_IMAGE_FILL 0, FLOOR_IMAGE_FIT 1.
        for (mode, marked) in [(UInt32(1), true), (UInt32(0), false), (UInt32(7), false)] {
            let canvas = HTMLCanvas(images: { _ in "/image/a.svg" })
            canvas.image("a.svg", x: 0, y: 0, width: 40, height: 30, mode: mode)
            #expect(canvas.html.hasPrefix(marked ? #"<div class="img fit""# : #"<div class="img" "#), "\(mode)")
            #expect(canvas.html.contains(#"<img src="/image/a.svg""#))
        }
        let plain = HTMLCanvas()
        plain.image("a.svg", x: 0, y: 0, width: 40, height: 30)
        #expect(plain.html.hasPrefix(#"<div class="img" "#) && !plain.html.contains("<img"))
    }
}
