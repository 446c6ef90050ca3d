import Foundation
import Testing

@testable import FloorText

/// The font set the engine opens is the one Fonts.lock pins (Scripts/setup checks the files' hashes
/// against it), and its styles are the ABI's (docs/ABI-1.5.md, part 1).
@Suite struct FontSetTests {
    @Test func theEngineListsExactlyTheFilesOfFontsLock() throws {
        let lock = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Fonts.lock")
        let rows = try String(contentsOf: lock, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let listed = rows.map { [$0[0], $0[1], $0[2], $0[3]] }
        let engine = FontSet.files.map { [$0.sha256, $0.package, $0.version, $0.path] }
        #expect(listed == engine)
    }

    /// FontFace opens a file of the set where it lies, and refuses what holds no face of its own: a missing
    /// file, a file that is not a font, a face index past a collection's end.
    @Test func aFaceOpensOnlyARealFontsFace() throws {
        for file in FontSet.files {
            let face = try #require(FontFace(file), "\(file.path)")
            #expect(face.unitsPerEm >= 1000 && face.has(file.role == .emoji ? 0x1F600 : 0x41), "\(file.path)")
        }
        let cjk = FontSet.file(.cjk)
        func moved(_ path: String, index: Int) -> FontSet.File {
            FontSet.File(
                role: cjk.role, path: path, faceIndex: index, package: cjk.package, version: cjk.version,
                sha256: cjk.sha256)
        }
        #expect(FontFace(moved("/nonexistent/font.ttc", index: 0)) == nil)
        #expect(FontFace(moved(#filePath, index: 0)) == nil, "a Swift file is not a font")
        #expect(FontFace(moved(cjk.path, index: 1)) != nil, "the collection's second face")
        #expect(FontFace(moved(cjk.path, index: 1000)) == nil, "past the collection's faces")
    }

    @Test func theStylesHaveTheABIsSizesAndLineHeights() {
        let sizes = TypeStyle.all.map { [$0.pointSize, $0.lineHeight] }
        #expect(sizes == [[12, 16], [13, 18], [15, 20], [17, 22], [20, 25]])
        #expect(TypeStyle(style: 0) == nil)
        #expect(TypeStyle(style: 0xF00) == TypeStyle(style: 0x300))
        #expect(TypeStyle(style: 0x401)?.weight == .bold)
        #expect(TypeStyle(style: 0x404)?.weight == .semibold)
    }
}
