import CHarfBuzz

/// A face's GSUB or GPOS table as OpenType lays it out, read for one question (`PlainGlyphs`): which glyphs
/// can a lookup act at. A lookup's subtable acts at a glyph only if the glyph is in its first coverage: the
/// glyph substituted or positioned, the first of a ligature, a context or a pair, the mark of a mark
/// attachment. Every offset is checked against the table's length; a table that does not parse answers nil.
final class LayoutTable {
    enum Kind: Equatable {
        case gsub, gpos

        var tag: hb_tag_t { LayoutTable.tag(self == .gsub ? "GSUB" : "GPOS") }
        /// The lookup type that wraps another (Extension).
        var extensionType: Int { self == .gsub ? 7 : 9 }
        var contextType: Int { self == .gsub ? 5 : 7 }
        var chainContextType: Int { self == .gsub ? 6 : 8 }
    }

    /// Which of the glyphs asked about some subtable may act at.
    struct Covered {
        /// By a pair positioning subtable of a lookup that skips no base glyph or ligature (kerning).
        var pair: [Bool]
        /// By any other subtable.
        var other: [Bool]
    }

    let kind: Kind
    private let blob: OpaquePointer
    private let bytes: UnsafeRawBufferPointer

    static func tag(_ name: String) -> hb_tag_t {
        name.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }
    }

    /// nil when the face has no such table.
    init?(_ kind: Kind, face: OpaquePointer) {
        guard let blob = hb_face_reference_table(face, kind.tag) else { return nil }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else {
            hb_blob_destroy(blob)
            return nil
        }
        self.kind = kind
        self.blob = blob
        bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
    }

    deinit { hb_blob_destroy(blob) }

    /// Which of `glyphs` (0: none) a subtable of `lookups` may act at; nil when the table does not parse.
    func coverage(of glyphs: [hb_codepoint_t], lookups: OpaquePointer?) -> Covered? {
        var covered = Covered(
            pair: [Bool](repeating: false, count: glyphs.count), other: [Bool](repeating: false, count: glyphs.count))
        guard let lookupList = offset16(at: 8, from: 0), let lookupCount = u16(lookupList) else { return nil }
        var lookup = hb_codepoint_t.max  // HB_SET_VALUE_INVALID: from the start
        while hb_set_next(lookups, &lookup) != 0 {
            guard Int(lookup) < lookupCount,
                let table = offset16(at: lookupList + 2 + 2 * Int(lookup), from: lookupList),
                let lookupType = u16(table), let flags = u16(table + 2), let subtableCount = u16(table + 4)
            else { return nil }
            for s in 0..<subtableCount {
                guard var subtable = offset16(at: table + 6 + 2 * s, from: table) else { return nil }
                var type = lookupType
                if type == kind.extensionType {
                    guard let wrapped = u16(subtable + 2), let far = u32(subtable + 4), subtable + far < bytes.count
                    else { return nil }
                    type = wrapped
                    subtable += far
                }
                guard let first = firstCoverage(subtable, type: type) else { return nil }
                // Pair positioning that skips no base glyph or ligature: the glyph pairs with the one after it.
                let isPair = kind == .gpos && type == 2 && flags & 0x6 == 0
                for (k, glyph) in glyphs.enumerated() where glyph != 0 {
                    guard let index = coverageIndex(first, glyph) else { return nil }
                    guard index >= 0 else { continue }
                    if isPair {
                        covered.pair[k] = true
                    } else if kind == .gsub && type == 4 {
                        guard let forms = ligatureFormsWithin(glyphs, subtable: subtable, index: index) else {
                            return nil
                        }
                        if forms { covered.other[k] = true }
                    } else {
                        covered.other[k] = true
                    }
                }
            }
        }
        return covered
    }

    /// Where the coverage of the glyph a subtable acts at starts.
    private func firstCoverage(_ subtable: Int, type: Int) -> Int? {
        guard let format = u16(subtable) else { return nil }
        if (type == kind.contextType || type == kind.chainContextType) && format == 3 {
            if type == kind.contextType {
                // format, glyphCount, seqLookupCount, coverageOffsets[glyphCount]
                return offset16(at: subtable + 6, from: subtable)
            }
            // format, backtrackGlyphCount, backtrackCoverageOffsets[], inputGlyphCount, inputCoverageOffsets[]
            guard let backtrack = u16(subtable + 2) else { return nil }
            return offset16(at: subtable + 4 + 2 * backtrack + 2, from: subtable)
        }
        // Every other subtable (and formats 1 and 2 of the context ones): format, coverageOffset.
        return offset16(at: subtable + 2, from: subtable)
    }

    /// Whether a ligature of a ligature substitution (GSUB type 4) that starts with the glyph at `index` of its
    /// coverage is made of `glyphs` only (so could form in a text of them); nil when it does not parse.
    /// One that needs any other glyph (Noto Sans: "0" and U+FE00, a slashed zero) never forms in such a text.
    private func ligatureFormsWithin(_ glyphs: [hb_codepoint_t], subtable: Int, index: Int) -> Bool? {
        // format, coverageOffset, ligatureSetCount, ligatureSetOffsets[]
        guard u16(subtable) == 1, let setCount = u16(subtable + 4), index < setCount,
            let set = offset16(at: subtable + 6 + 2 * index, from: subtable), let count = u16(set)
        else { return nil }
        for l in 0..<count {
            // ligatureGlyph, componentCount, componentGlyphIDs[componentCount - 1]
            guard let ligature = offset16(at: set + 2 + 2 * l, from: set), let components = u16(ligature + 2) else {
                return nil
            }
            var within = true
            for c in 1..<max(components, 1) {
                guard let glyph = u16(ligature + 4 + 2 * (c - 1)) else { return nil }
                if glyph == 0 || !glyphs.contains(hb_codepoint_t(glyph)) { within = false }
            }
            if within { return true }
        }
        return false
    }

    /// The place of `glyph` in the coverage table at `coverage`, -1 when it is not there; nil when the table
    /// does not parse. A binary search, as HarfBuzz's own (OpenType sorts coverage tables by glyph).
    private func coverageIndex(_ coverage: Int, _ glyph: hb_codepoint_t) -> Int? {
        guard let format = u16(coverage), let count = u16(coverage + 2) else { return nil }
        let target = Int(glyph)
        var low = 0
        var high = count - 1
        switch format {
        case 1:
            while low <= high {
                let middle = (low + high) / 2
                guard let g = u16(coverage + 4 + 2 * middle) else { return nil }
                if g == target { return middle }
                if g < target { low = middle + 1 } else { high = middle - 1 }
            }
            return -1
        case 2:
            while low <= high {
                let middle = (low + high) / 2
                let range = coverage + 4 + 6 * middle
                guard let start = u16(range), let end = u16(range + 2), let first = u16(range + 4) else { return nil }
                if target < start {
                    high = middle - 1
                } else if target > end {
                    low = middle + 1
                } else {
                    return first + target - start
                }
            }
            return -1
        default:
            return nil
        }
    }

    private func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    private func u32(_ at: Int) -> Int? {
        guard let high = u16(at), let low = u16(at + 2) else { return nil }
        return high << 16 | low
    }

    /// The 16-bit offset at `at`, from `base`, as a position in the table; nil for 0 or past the end.
    private func offset16(at: Int, from base: Int) -> Int? {
        guard let offset = u16(at), offset != 0, base + offset < bytes.count else { return nil }
        return base + offset
    }
}
