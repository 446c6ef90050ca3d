import FloorText
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// The preview's font route (docs/ABI.md, "Text layout"): exactly the files of the font set the host
/// measures with, byte for byte, and nothing else under any name; a preview page names them in its faces.
struct FontRouteTests {
    @Test func theFontSetsFilesAreServedAsTheyAreOnDisk() async throws {
        let fixture = try ServeFixture()
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            for file in FontSet.files {
                try await client.execute(uri: "/fonts/" + file.fileName, method: .get) { response in
                    #expect(response.status == .ok, "\(file.fileName)")
                    let expected = try Data(contentsOf: URL(fileURLWithPath: file.path))
                    #expect(Data(buffer: response.body) == expected, "\(file.fileName)")
                    #expect(
                        response.headers[.contentType]
                            == (file.fileName.hasSuffix(".ttc") ? "font/collection" : "font/ttf"))
                }
            }
        }
    }

    @Test(arguments: [
        "/fonts/DejaVuSans.ttf", "/fonts/..%2F..%2Fetc%2Fpasswd", "/fonts/", "/fonts/NotoSans-Regular.ttf.bak",
        "/fonts/%2Fusr%2Fshare%2Ffonts%2Ftruetype%2Fnoto%2FNotoSans-Regular.ttf",
    ])
    func anyOtherNameIsNotFound(uri: String) async throws {
        let fixture = try ServeFixture()
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound, "\(uri)")
            }
        }
    }

    @Test func aPreviewPageDrawsTextWithTheServedFaces() async throws {
        let fixture = try ServeFixture()
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            try await client.execute(uri: "/page/home.json", method: .get) { response in
                let html = String(buffer: response.body)
                for file in FontSet.files { #expect(html.contains("url(\"/fonts/\(file.fileName)\")")) }
                #expect(html.contains(".tl{position:absolute;white-space:pre;overflow:visible"))
            }
        }
    }
}
