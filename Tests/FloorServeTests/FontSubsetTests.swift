import FloorText
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// A preview page's CJK faces cut to its characters (FontSubsets): the characters read from the page's
/// file, the faces named in its CSS for exactly those, cut with the same advances as the files, and the
/// cache of them bounded.
struct FontSubsetTests {
    @Test func aPagesCharactersAreReadFromItsBytesAndEscapes() {
        let page = #"{"title":"首页 \u9996 \ud83d\ude00 café \\u4e00 \"x\""}"#
        #expect(PageCharacters.of(Array(page.utf8)) == [0xE9, 0x9875, 0x9996, 0x1F600])
        let many = (0..<(PageCharacters.limit + 1)).map { Character(Unicode.Scalar(0x4E00 + UInt32($0))!) }
        #expect(PageCharacters.of(Array(String(many).utf8)) == nil)
        #expect(PageCharacters.of(Array(#"{"a":"plain"}"#.utf8)) == [])
    }

    @Test func runsOfCodePointsAreJoinedInTheUnicodeRange() {
        #expect(FontSubsets.ranges([0x41, 0x42, 0x43, 0x45, 0x9996]) == "U+41-43,U+45,U+9996")
    }

    @Test func aPreviewPageNamesItsCutFacesWhichHoldItsCharactersAsTheFilesDo() async throws {
        let fixture = try ServeFixture()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.pages + "/home.json")))
        let characters = try #require(PageCharacters.of(bytes))
        #expect(characters.contains(0x9996))  // 首, of 首页 Home
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            let html = try await client.execute(uri: "/page/home.json", method: .get) { String(buffer: $0.body) }
            for file in FontSet.files { #expect(html.contains("url(\"/fonts/\(file.fileName)\")")) }
            for role in FontSubsets.roles {
                let file = FontSet.file(role)
                let face = try #require(
                    html.firstMatch(of: #/url\("(/fonts/page/[0-9a-f]+/[^"]+)"\) format\("opentype"\)/#)
                        .map { String($0.1) }.map {
                            $0.replacingOccurrences(of: "NotoSansCJK-Regular.ttc", with: file.fileName)
                        })
                #expect(html.contains("unicode-range:" + FontSubsets.ranges(characters) + "}"))
                try await client.execute(uri: face, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "font/otf")
                    let cut = Data(buffer: response.body)
                    let whole = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
                    #expect(cut.count > 1_000 && cut.count * 100 < whole, "\(cut.count) of \(whole) bytes")
                    let path = fixture.folder + "/" + file.fileName + ".otf"
                    try cut.write(to: URL(fileURLWithPath: path))
                    let check = try runTool(
                        "/usr/bin/env",
                        [
                            "python3", ServeRepo.root + "/Tests/Fixtures/Fonts/cut_face_check.py", path, file.path,
                            String(file.faceIndex),
                        ] + characters.map { String($0, radix: 16) })
                    #expect(check.status == 0, "\(check.output)")
                }
            }
            // A key the server does not know, and a face it does not cut: 404 (the browser then loads the file).
            for uri in ["/fonts/page/0123abcd/NotoSansCJK-Regular.ttc.otf", "/fonts/page/0123abcd/x.otf"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound, "\(uri)") }
            }
        }
    }

    @Test func onlyTheLatestPagesKeepTheirCutFaces() async throws {
        let subsets = FontSubsets()
        var keys: [String] = []
        for i in 0...FontSubsets.capacity {
            let css = await subsets.css(
                forPage: Array("{\"t\":\"\(Character(Unicode.Scalar(0x4E00 + UInt32(i))!))\"}".utf8))
            keys.append(try #require(css.firstMatch(of: #/fonts/page/([0-9a-f]+)//#).map { String($0.1) }))
        }
        #expect(Set(keys).count == keys.count)
        let file = FontSet.file(.cjk).fileName
        #expect(await subsets.face(key: keys[0], file: file) == nil, "the least recently used page went")
        #expect(await subsets.face(key: keys.last!, file: file) != nil)
        // A page with no character past ASCII gets the whole files only.
        #expect(await subsets.css(forPage: Array(#"{"t":"plain"}"#.utf8)) == FontRoute.fontFaces)
    }
}
