import CHarfBuzz
import Testing

@testable import FloorText

/// A piece made of plain characters (PlainGlyphs: a price) is measured from the face's table, not shaped,
/// and measures exactly what HarfBuzz gives for it: every pair of candidates, every triple of a price's
/// characters and seeded random strings, in both weights and every size, against HarfBuzz shaping the same
/// units with the same face.
@Suite struct PlainGlyphsTests {
    /// Noto Sans Regular and Bold, each as the only face of a weight (faces of the test's own), and Noto
    /// Serif from the same package, which kerns pairs of candidates ("*." by -120 units, ".?" by -90), where
    /// Noto Sans kerns none.
    static func faces() -> [(String, Shaper.Faces, FontFace)] {
        let sans = FontSet.file(.sans)
        let serif = FontSet.File(
            role: .sans, path: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", faceIndex: 0,
            package: sans.package, version: sans.version, sha256: "")
        return [FontSet.file(.sans), FontSet.file(.sansBold), serif].compactMap { file in
            guard let face = FontFace(file) else { return nil }
            return (file.fileName, Shaper.Faces(sans: face, cjk: nil, emoji: nil), face)
        }
    }

    /// What the engine measures: `Shaper.advances`' running sums.
    func measured(_ units: [UInt16], _ shaper: Shaper, _ faces: Shaper.Faces, pointSize: Double) -> [Double] {
        var prefix: [Double] = []
        units.withUnsafeBufferPointer { shaper.advances($0, faces: faces, pointSize: pointSize, into: &prefix) }
        return prefix
    }

    /// HarfBuzz's own: the units shaped as one piece, each glyph's advance on its cluster, the same sums.
    func shaped(_ units: [UInt16], _ face: FontFace, pointSize: Double) -> [Double] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        units.withUnsafeBufferPointer {
            hb_buffer_add_utf16(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count))
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        var advances = [Int32](repeating: 0, count: units.count)
        for g in 0..<Int(count) { advances[Int(infos[g].cluster)] += positions[g].x_advance }
        let scale = pointSize / face.unitsPerEm
        var sums = [0.0]
        for advance in advances { sums.append(sums.last! + Double(advance) * scale) }
        return sums
    }

    @Test(arguments: 0..<3) func plainPiecesMeasureWhatHarfBuzzShapes(_ which: Int) throws {
        let all = Self.faces()
        try #require(all.count == 3, "Noto Sans Regular and Bold, Noto Serif (fonts-noto-core: run Scripts/setup)")
        let (name, faces, face) = all[which]
        let shaper = Shaper()
        let candidates = PlainGlyphs.candidates
        var texts: [[UInt16]] = []
        for a in candidates { for b in candidates { texts.append([a, b]) } }
        let priceCharacters = Array("0123456789.,¥-/%".utf16)
        for a in priceCharacters { for b in priceCharacters { for c in priceCharacters { texts.append([a, b, c]) } } }
        var random = SplitMix(seed: 23)
        for _ in 0..<3_000 {
            texts.append((0..<(1 + random.next() % 12)).map { _ in candidates[random.next() % candidates.count] })
        }
        texts += [
            "¥464.47", "¥1,081.08", "..", "1..2", ",,", "-34%", "(+1)", "#1", "12:30", "100%", "1*.2", "*.*.", "3.?",
        ].map { Array($0.utf16) }
        var mismatches: [String] = []
        for text in texts {
            for pointSize in [12.0, 15, 20]
            where measured(text, shaper, faces, pointSize: pointSize) != shaped(text, face, pointSize: pointSize) {
                mismatches.append("\(String(decoding: text, as: UTF16.self)) at \(pointSize)")
            }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(20))")
    }

    /// The plain path's pieces (`PlainGlyphs.advances`: letters and the space too, kerned pairs applied, a
    /// ligature pair refused): every pair of candidates, a space before each, and seeded words, in each face,
    /// give HarfBuzz's own advances wherever the table measures them, and the table refuses only pieces
    /// holding a ligature's first two ("fi", "ff").
    @Test(arguments: 0..<3) func wordsMeasureWhatHarfBuzzShapes(_ which: Int) throws {
        let all = Self.faces()
        try #require(all.count == 3, "Noto Sans Regular and Bold, Noto Serif (fonts-noto-core: run Scripts/setup)")
        let (name, _, face) = all[which]
        let glyphs = PlainGlyphs(face: face, buffer: hb_buffer_create())
        let candidates = PlainGlyphs.candidates
        var texts: [[UInt16]] = []
        for a in candidates { for b in candidates { texts.append([a, b]) } }
        for a in candidates { texts.append([0x20, a]) }
        let letters = Array("abcdefghijklmnopqrstuvwxyzAVTWYLPo.,-'\"".utf16)
        var random = SplitMix(seed: 19)
        for _ in 0..<2_000 {
            texts.append((0..<(1 + random.next() % 10)).map { _ in letters[random.next() % letters.count] })
        }
        var mismatches: [String] = []
        var kerned = 0
        var refused = 0
        for text in texts {
            let expected = shaped(text, face, pointSize: 15)
            var advances = [Double](repeating: 0, count: text.count)
            let measured = text.withUnsafeBufferPointer { units in
                advances.withUnsafeMutableBufferPointer {
                    glyphs.advances(
                        units.baseAddress!, count: units.count, scale: 15 / face.unitsPerEm, into: $0.baseAddress!)
                }
            }
            let string = String(decoding: text, as: UTF16.self)
            guard measured else {
                refused += 1
                let ligature = ["ff", "fi", "fl"].contains { string.contains($0) }
                if !ligature && name.hasPrefix("NotoSans-") { mismatches.append("refused \(string)") }
                continue
            }
            var sums = [0.0]
            for advance in advances { sums.append(sums.last! + advance) }
            if sums != expected { mismatches.append(string) }
            if text.count == 2 && advances[0] != shaped([text[0]], face, pointSize: 15)[1] { kerned += 1 }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(20))")
        // Noto Sans kerns letter pairs ("AV", "To"), which the table applies rather than refuses.
        #expect(kerned > 100, "\(name): \(kerned) kerned pairs")
        #expect(refused < texts.count / 20, "\(name): \(refused) refused")
    }

    /// Every ideograph the table measures (U+4E00-U+9FFF, looked into without shaping it), in both CJK
    /// faces, is what HarfBuzz gives it shaped alone and beside another: the coverage analysis alone decides.
    @Test func everyIdeographTheTableMeasuresIsWhatHarfBuzzShapes() throws {
        let files = [FontSet.file(.cjk), FontSet.file(.cjkBold)]
        let faces = files.compactMap { FontFace($0) }
        try #require(faces.count == 2, "Noto Sans CJK Regular and Bold (fonts-noto-cjk: run Scripts/setup)")
        for face in faces {
            let glyphs = PlainGlyphs(face: face, buffer: hb_buffer_create())
            var mismatches: [UInt16] = []
            var plain = 0
            for unit in PlainGlyphs.ideographs {
                for text in [[unit], [unit, 0x4E00]] {
                    var advances = [Double](repeating: 0, count: text.count)
                    let measured = text.withUnsafeBufferPointer { units in
                        advances.withUnsafeMutableBufferPointer {
                            glyphs.advances(units.baseAddress!, count: units.count, scale: 1, into: $0.baseAddress!)
                        }
                    }
                    guard measured else { continue }
                    if text.count == 1 { plain += 1 }
                    var sums = [0.0]
                    for advance in advances { sums.append(sums.last! + advance) }
                    if sums != shaped(text, face, pointSize: face.unitsPerEm) { mismatches.append(unit) }
                }
            }
            #expect(mismatches.isEmpty, "\(face): \(mismatches.prefix(10).map { String(UnicodeScalar($0)!) })")
            #expect(plain > 20_000, "\(plain) of 20,992 ideographs plain")
        }
    }

    @Test func aPriceIsMeasuredWithoutShapingItInEitherWeight() throws {
        let all = Self.faces()
        try #require(all.count == 3, "Noto Sans Regular and Bold, Noto Serif (fonts-noto-core: run Scripts/setup)")
        for (name, faces, face) in all {
            let shaper = Shaper()
            // The first price shapes each of its characters and pairs once (not counted as glyphs).
            _ = measured(Array("¥464.47".utf16), shaper, faces, pointSize: 17)
            let before = shaper.glyphs
            for price in ["¥1081.08", "¥22.26", "¥5.50", "¥2999.60"] {
                let units = Array(price.utf16)
                #expect(
                    measured(units, shaper, faces, pointSize: 17) == shaped(units, face, pointSize: 17),
                    "\(name) \(price)")
            }
            #expect(shaper.glyphs == before, "\(name): prices measured from the table, none shaped")
            // A word is shaped as before.
            _ = measured(Array("Price".utf16), shaper, faces, pointSize: 17)
            #expect(shaper.glyphs > before, "\(name)")
        }
    }
}

/// SplitMix64: a seeded sequence, the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }
}
