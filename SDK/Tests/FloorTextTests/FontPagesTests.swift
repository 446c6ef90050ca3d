import Foundation
import Testing

@testable import FloorText

/// A face hands the pages of its font file back after its first shape (FontFace.shaped), and what is shaped
/// after that is the same: the pages come back from the file as they were.
@Suite struct FontPagesTests {
    /// Resident kilobytes of this process's mapping that starts at `address` (/proc/self/smaps), nil when
    /// there is none.
    static func residentKB(ofMappingAt address: UnsafeRawPointer) throws -> Int? {
        let start = UInt(bitPattern: address)
        var inMapping = false
        // Read to its end (String(contentsOfFile:) takes one page of a /proc file).
        let smaps = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readToEnd() ?? Data()
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                inMapping = UInt(range.split(separator: "-")[0], radix: 16) == start
            } else if inMapping, fields.first == "Rss:", fields.count > 1 {
                return Int(fields[1])
            }
        }
        return nil
    }

    @Test func aFacesFirstShapeHandsItsPagesBackAndLaterShapesAgree() throws {
        // Faces of their own (each mapped afresh), not the engine's.
        func shaper() throws -> (Shaper, Shaper.Faces, cjk: FontFace) {
            let cjk = try #require(FontFace(FontSet.file(.cjk)))
            let sans = FontFace(FontSet.file(.sans))
            #expect(sans != nil)
            return (Shaper(), Shaper.Faces(sans: sans, cjk: cjk, emoji: nil), cjk)
        }
        func advances(_ text: String, _ by: (Shaper, Shaper.Faces, cjk: FontFace)) -> [Double] {
            var prefix: [Double] = []
            Array(text.utf16).withUnsafeBufferPointer { by.0.advances($0, faces: by.1, pointSize: 15, into: &prefix) }
            return prefix
        }
        // One word: one piece, one shape with the CJK face.
        let first = "无线蓝牙耳机"
        let later = "智能手表 运动鞋 咖啡豆 保温杯 猜你喜欢"

        let handingBack = try shaper()
        let cjkStart = try #require(handingBack.cjk.mapped.baseAddress)
        _ = advances(first, handingBack)
        let afterFirst = try #require(try Self.residentKB(ofMappingAt: cjkStart))
        let laterAdvances = advances(later, handingBack)
        let afterLater = try #require(try Self.residentKB(ofMappingAt: cjkStart))
        #expect(afterFirst < 64, "handed back right after the first shape: \(afterFirst) KB resident")
        // Without the hand-back, the first shape alone leaves about 1 MB of the file resident.
        #expect(afterLater < 800, "what later shapes read comes back: \(afterLater) KB resident")

        // The later text shaped first by faces of their own (every table read whole, nothing handed back yet).
        let fresh = try shaper()
        let freshAdvances = advances(later, fresh)
        #expect(laterAdvances.count == later.utf16.count + 1)
        #expect(laterAdvances == freshAdvances)
    }
}
