import CHarfBuzz

/// The digits, punctuation and currency signs of one face that HarfBuzz sets as their own glyph at that
/// glyph's own advance, whatever stands beside them, so that a piece made of them (a price, "¥464.47") is
/// measured from a table instead of shaped: 40,097 distinct prices were 660 M instructions of HarfBuzz in the
/// text preview of the 8 MB page (BENCHMARKS.md, issue 23).
///
/// Exact, not a guess: a character is plain when the face's layout tables cannot change it. Worked out once a
/// face from the shape plan HarfBuzz uses for such a piece (`hb_shape_plan_collect_lookups`): a GSUB or GPOS
/// lookup acts at a glyph only if the glyph is in the first coverage of one of its subtables (the glyph
/// substituted or positioned, the first of a context, ligature or pair), so a character whose glyph is in
/// none is left as it is (`LayoutTable`). Two exceptions are looked into: a ligature that needs a glyph
/// other than the candidates' never forms among them (Noto Sans's "0" + U+FE00, a slashed zero), and pair
/// positioning (kerning) is tried: each pair of plain characters whose first is in a pair subtable's
/// coverage is shaped the first time it is met, and a pair HarfBuzz moves is not plain (Noto Serif kerns
/// "*." by -120 units; Noto Sans kerns no two candidates). Lookups of the automatic fractions alone (frac,
/// numr, dnom) are left out: HarfBuzz applies them only around U+2044, which no plain piece holds. A face
/// with tables HarfBuzz applies outside GSUB and GPOS (kern, kerx, morx, mort, trak), or without GPOS, has no
/// plain characters, and neither has one whose tables do not parse. Each character is also shaped alone the
/// first time it is met, and must give its nominal glyph at its nominal advance. Used under the engine's
/// lock.
final class PlainGlyphs {
    /// The characters that may be plain: ASCII but letters, space and controls, and ¢ £ ¥. All of them are
    /// of the Common script, so HarfBuzz guesses the same segment properties (and shape plan) for any piece
    /// made of them.
    static let candidates: [UInt16] =
        (0x21...0x7E).filter { !(0x41...0x5A).contains($0) && !(0x61...0x7A).contains($0) }
        .map { UInt16($0) } + [0xA2, 0xA3, 0xA5]

    /// Whether `unit` is a candidate (whether a face's plain characters are worth finding for a piece that
    /// starts with it).
    static func isCandidate(_ unit: UInt16) -> Bool { unit < 0x100 && candidateUnits[Int(unit)] }

    private static let candidateUnits: [Bool] = (0..<0x100).map { candidates.contains(UInt16($0)) }

    /// By UTF-16 unit below 0x100: 0 when not plain, else 1 + its place in `candidates`.
    private let slot = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x100)
    /// By place in `candidates`: the glyph's advance in font units (0 until shaped alone).
    private let advance = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
    /// By place in `candidates`: its nominal glyph.
    private let glyph = UnsafeMutablePointer<hb_codepoint_t>.allocate(capacity: 64)
    /// By place in `candidates`: whether it has been shaped alone (and gave its nominal glyph and advance).
    private let shapedAlone = UnsafeMutablePointer<Bool>.allocate(capacity: 64)
    /// By place in `candidates`: whether a pair subtable covers it, so each pair it starts is shaped once.
    private let startsPairs = UnsafeMutablePointer<Bool>.allocate(capacity: 64)
    /// By place in `candidates`: bit k set when the pair with candidate k after it has been shaped, and in
    /// `kerned` when HarfBuzz moved it.
    private let pairsShaped = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
    private let kerned = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
    /// The face that keeps this (`FontFace.plain`).
    private unowned let face: FontFace
    /// The shaper's HarfBuzz buffer (it outlives this).
    private let buffer: OpaquePointer

    deinit {
        slot.deallocate()
        advance.deallocate()
        glyph.deallocate()
        shapedAlone.deallocate()
        startsPairs.deallocate()
        pairsShaped.deallocate()
        kerned.deallocate()
    }

    /// Adds the advances of units start..<end of the face (font units times `scale`) to `result` and returns
    /// true when every unit is plain and no two side by side kern; else returns false and leaves `result`.
    /// A candidate, and a pair a pair subtable may move, is shaped the first time it is met (a few dozen
    /// shapes in all, where shaping every pair up front was 10 M instructions of every json render).
    func measure(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, scale: Double,
        into result: UnsafeMutablePointer<Double>
    ) -> Bool {
        var previous = -1
        var i = start
        while i < end {
            let unit = units[i]
            guard unit < 0x100 else { return false }
            let k = Int(slot[Int(unit)]) - 1
            guard k >= 0 else { return false }
            if !shapedAlone[k] {
                guard shapeAlone(k) else { return false }
            }
            if previous >= 0 && startsPairs[previous] {
                let bit: UInt64 = 1 << UInt64(k)
                if pairsShaped[previous] & bit == 0 { shapePair(previous, k) }
                if kerned[previous] & bit != 0 { return false }
            }
            previous = k
            i += 1
        }
        for i in start..<end { result[i] += Double(advance[Int(slot[Int(units[i])]) - 1]) * scale }
        return true
    }

    /// Shapes candidate k alone; false (and no longer a candidate) unless it gives its nominal glyph and advance.
    private func shapeAlone(_ k: Int) -> Bool {
        let nominal = hb_font_get_glyph_h_advance(face.font, glyph[k])
        var text = [Self.candidates[k]]
        guard Self.shapesPlain(buffer, face: face, text: &text, glyphs: [glyph[k]], advances: [nominal]) else {
            slot[Int(Self.candidates[k])] = 0
            return false
        }
        advance[k] = nominal
        shapedAlone[k] = true
        return true
    }

    /// Shapes candidates a and b (each plain alone) side by side, and notes whether HarfBuzz moved them.
    private func shapePair(_ a: Int, _ b: Int) {
        var text = [Self.candidates[a], Self.candidates[b]]
        let bit: UInt64 = 1 << UInt64(b)
        pairsShaped[a] |= bit
        if !Self.shapesPlain(
            buffer, face: face, text: &text, glyphs: [glyph[a], glyph[b]], advances: [advance[a], advance[b]])
        {
            kerned[a] |= bit
        }
    }

    /// The characters of `face` its layout tables leave alone, shaped with `buffer` (HarfBuzz's, cleared
    /// before each use) as they are met.
    init(face: FontFace, buffer: OpaquePointer) {
        self.face = face
        self.buffer = buffer
        slot.initialize(repeating: 0, count: 0x100)
        advance.initialize(repeating: 0, count: 64)
        glyph.initialize(repeating: 0, count: 64)
        shapedAlone.initialize(repeating: false, count: 64)
        startsPairs.initialize(repeating: false, count: 64)
        pairsShaped.initialize(repeating: 0, count: 64)
        kerned.initialize(repeating: 0, count: 64)
        let candidates = Self.candidates
        // The tables' pages read here are not read again.
        defer { face.handBack() }
        guard let hbFace = hb_font_get_face(face.font), Self.appliesOnlyGSUBAndGPOS(hbFace) else { return }

        // The nominal glyph of each candidate that has one and is not a mark (HarfBuzz zeroes marks' advances).
        var glyphs = [hb_codepoint_t](repeating: 0, count: candidates.count)
        for (k, unit) in candidates.enumerated() {
            var nominal: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(face.font, hb_codepoint_t(unit), &nominal) != 0, nominal != 0 else {
                continue
            }
            guard hb_ot_layout_get_glyph_class(hbFace, nominal) != HB_OT_LAYOUT_GLYPH_CLASS_MARK else { continue }
            glyphs[k] = nominal
        }

        // The lookups HarfBuzz's plan for such a piece applies.
        var one: [UInt16] = [0x31]
        Self.fill(buffer, with: &one)
        var properties = hb_segment_properties_t()
        hb_buffer_get_segment_properties(buffer, &properties)
        guard let plan = hb_shape_plan_create_cached(hbFace, &properties, nil, 0, nil) else { return }
        defer { hb_shape_plan_destroy(plan) }
        for table in [LayoutTable.Kind.gsub, .gpos] {
            let lookups = hb_set_create()
            defer { hb_set_destroy(lookups) }
            hb_ot_shape_plan_collect_lookups(plan, table.tag, lookups)
            Self.removeFractionOnly(lookups, face: hbFace, table: table.tag)
            guard let covered = LayoutTable(table, face: hbFace)?.coverage(of: glyphs, lookups: lookups) else { return }
            for k in candidates.indices {
                if covered.other[k] { glyphs[k] = 0 }
                if covered.pair[k] { startsPairs[k] = true }
            }
        }
        for k in candidates.indices where glyphs[k] != 0 {
            glyph[k] = glyphs[k]
            slot[Int(candidates[k])] = UInt8(k + 1)
        }
    }

    /// Whether HarfBuzz positions with GPOS and applies no table beside GSUB and GPOS to this face.
    private static func appliesOnlyGSUBAndGPOS(_ face: OpaquePointer) -> Bool {
        guard hb_ot_layout_has_positioning(face) != 0 else { return false }
        for tag in ["kern", "kerx", "morx", "mort", "trak"] {
            let blob = hb_face_reference_table(face, LayoutTable.tag(tag))
            defer { hb_blob_destroy(blob) }
            if hb_blob_get_length(blob) != 0 { return false }
        }
        return true
    }

    /// Takes out of `lookups` those no feature of the face but frac, numr and dnom uses.
    private static func removeFractionOnly(_ lookups: OpaquePointer?, face: OpaquePointer, table: hb_tag_t) {
        var count: UInt32 = 0
        let total = hb_ot_layout_table_get_feature_tags(face, table, 0, &count, nil)
        var tags = [hb_tag_t](repeating: 0, count: Int(total))
        count = total
        _ = tags.withUnsafeMutableBufferPointer {
            hb_ot_layout_table_get_feature_tags(face, table, 0, &count, $0.baseAddress)
        }
        let fractions = ["frac", "numr", "dnom"].map(LayoutTable.tag)
        let others = Array(Set(tags.prefix(Int(count))).subtracting(fractions)) + [0]
        let fractionLookups = hb_set_create()
        let otherLookups = hb_set_create()
        defer {
            hb_set_destroy(fractionLookups)
            hb_set_destroy(otherLookups)
        }
        (fractions + [0]).withUnsafeBufferPointer {
            hb_ot_layout_collect_lookups(face, table, nil, nil, $0.baseAddress, fractionLookups)
        }
        others.withUnsafeBufferPointer {
            hb_ot_layout_collect_lookups(face, table, nil, nil, $0.baseAddress, otherLookups)
        }
        hb_set_subtract(fractionLookups, otherLookups)
        hb_set_subtract(lookups, fractionLookups)
    }

    private static func fill(_ buffer: OpaquePointer, with text: inout [UInt16]) {
        hb_buffer_clear_contents(buffer)
        text.withUnsafeBufferPointer {
            hb_buffer_add_utf16(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count))
        }
        hb_buffer_guess_segment_properties(buffer)
    }

    /// Whether HarfBuzz gives `text` one glyph a unit, `glyphs`, at `advances`, as the engine shapes a piece.
    private static func shapesPlain(
        _ buffer: OpaquePointer, face: FontFace, text: inout [UInt16], glyphs: [hb_codepoint_t], advances: [Int32]
    ) -> Bool {
        fill(buffer, with: &text)
        hb_shape(face.font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), Int(count) == glyphs.count,
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return false }
        for g in 0..<glyphs.count {
            guard infos[g].codepoint == glyphs[g], infos[g].cluster == UInt32(g), positions[g].x_advance == advances[g]
            else { return false }
        }
        return true
    }
}
