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
        /// By a pair positioning subtable of a lookup that skips no base glyph or ligature and moves only the
        /// first glyph of a pair (kerning): the glyph pairs with the one after it, and that one starts its own.
        var pair: [Bool]
        /// By any other subtable.
        var other: [Bool]
        /// (k, j): a ligature of glyphs only (in order) starts with glyphs[k], glyphs[j]; it forms only where
        /// those two stand side by side, so a text without that pair is left alone by it.
        var ligatures: [(Int, Int)]
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

    /// Which of `glyphs` (0: none) a subtable of `lookups` may act at, in a text made of those glyphs only;
    /// nil when the table does not parse. A context of format 3 one of whose positions covers none of the
    /// glyphs never matches in such a text, and a ligature that needs another glyph never forms in it.
    func coverage(of glyphs: [hb_codepoint_t], lookups: OpaquePointer?) -> Covered? {
        var covered = Covered(
            pair: [Bool](repeating: false, count: glyphs.count), other: [Bool](repeating: false, count: glyphs.count),
            ligatures: [])
        let parsed = forEachSubtable(lookups) { subtable, type, flags in
            guard let first = firstCoverage(subtable, type: type) else { return false }
            if type == kind.contextType || type == kind.chainContextType, u16(subtable) == 3 {
                guard let matches = contextMatches(within: glyphs, subtable: subtable, type: type) else { return false }
                if !matches { return true }
            }
            // Kerning: the first glyph moved, the second not (valueFormat2 0), so it starts the next pair.
            let isPair = kind == .gpos && type == 2 && flags & 0x6 == 0 && u16(subtable + 6) == 0
            for (k, glyph) in glyphs.enumerated() where glyph != 0 {
                guard let index = coverageIndex(first, glyph) else { return false }
                guard index >= 0 else { continue }
                if isPair {
                    covered.pair[k] = true
                } else if kind == .gsub && type == 4 && flags & 0x6 == 0 {
                    guard let seconds = ligatureSeconds(within: glyphs, subtable: subtable, index: index) else {
                        return false
                    }
                    for second in seconds {
                        if second == 0 {
                            covered.other[k] = true
                        } else {
                            for (j, g) in glyphs.enumerated() where g == second { covered.ligatures.append((k, j)) }
                        }
                    }
                } else {
                    covered.other[k] = true
                }
            }
            return true
        }
        return parsed ? covered : nil
    }

    /// Sets the bit of every glyph in the first coverage of a subtable of `lookups` in `covered` (a bit a glyph
    /// id, 65,536 of them): a glyph left clear is left alone by every one (as it stands: its nominal glyph at
    /// its own advance). False when the table does not parse.
    func markCovered(lookups: OpaquePointer?, in covered: UnsafeMutablePointer<UInt64>) -> Bool {
        forEachSubtable(lookups) { subtable, type, _ in
            guard let first = firstCoverage(subtable, type: type), let format = u16(first),
                let count = u16(first + 2)
            else { return false }
            for i in 0..<count {
                switch format {
                case 1:
                    guard let glyph = u16(first + 4 + 2 * i) else { return false }
                    covered[glyph >> 6] |= 1 << UInt64(glyph & 63)
                case 2:
                    guard let start = u16(first + 4 + 6 * i), let end = u16(first + 6 + 6 * i), start <= end else {
                        return false
                    }
                    for glyph in start...end { covered[glyph >> 6] |= 1 << UInt64(glyph & 63) }
                default:
                    return false
                }
            }
            return true
        }
    }

    /// Calls `body` with each subtable of `lookups` (an Extension's the one it wraps), its lookup type and the
    /// lookup's flags; false when the table does not parse or `body` returns false.
    private func forEachSubtable(_ lookups: OpaquePointer?, _ body: (Int, Int, Int) -> Bool) -> Bool {
        guard let lookupList = offset16(at: 8, from: 0), let lookupCount = u16(lookupList) else { return false }
        var lookup = hb_codepoint_t.max  // HB_SET_VALUE_INVALID: from the start
        while hb_set_next(lookups, &lookup) != 0 {
            guard Int(lookup) < lookupCount,
                let table = offset16(at: lookupList + 2 + 2 * Int(lookup), from: lookupList),
                let lookupType = u16(table), let flags = u16(table + 2), let subtableCount = u16(table + 4)
            else { return false }
            for s in 0..<subtableCount {
                guard var subtable = offset16(at: table + 6 + 2 * s, from: table) else { return false }
                var type = lookupType
                if type == kind.extensionType {
                    guard let wrapped = u16(subtable + 2), let far = u32(subtable + 4), subtable + far < bytes.count
                    else { return false }
                    type = wrapped
                    subtable += far
                }
                guard body(subtable, type, flags) else { return false }
            }
        }
        return true
    }

    /// Whether every position of a context subtable of format 3 (backtrack, input and lookahead) covers one
    /// of `glyphs` at least; nil when it does not parse.
    private func contextMatches(within glyphs: [hb_codepoint_t], subtable: Int, type: Int) -> Bool? {
        var coverages: [Int] = []
        if type == kind.contextType {
            // format, glyphCount, seqLookupCount, coverageOffsets[glyphCount]
            guard let count = u16(subtable + 2) else { return nil }
            for i in 0..<count {
                guard let coverage = offset16(at: subtable + 6 + 2 * i, from: subtable) else { return nil }
                coverages.append(coverage)
            }
        } else {
            // format, then backtrack, input and lookahead: each a count and that many coverage offsets
            var at = subtable + 2
            for _ in 0..<3 {
                guard let count = u16(at) else { return nil }
                for i in 0..<count {
                    guard let coverage = offset16(at: at + 2 + 2 * i, from: subtable) else { return nil }
                    coverages.append(coverage)
                }
                at += 2 + 2 * count
            }
        }
        for coverage in coverages {
            var any = false
            for glyph in glyphs where glyph != 0 {
                guard let index = coverageIndex(coverage, glyph) else { return nil }
                if index >= 0 {
                    any = true
                    break
                }
            }
            if !any { return false }
        }
        return true
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

    /// The second glyph of each ligature of a ligature substitution (GSUB type 4) that starts with the glyph at
    /// `index` of its coverage and is made of `glyphs` only (so could form in a text of them), 0 for one of a
    /// single glyph (a substitution wherever the glyph stands); nil when it does not parse. One that needs any
    /// other glyph (Noto Sans: "0" and U+FE00, a slashed zero) never forms in such a text.
    private func ligatureSeconds(within glyphs: [hb_codepoint_t], subtable: Int, index: Int) -> [hb_codepoint_t]? {
        // format, coverageOffset, ligatureSetCount, ligatureSetOffsets[]
        guard u16(subtable) == 1, let setCount = u16(subtable + 4), index < setCount,
            let set = offset16(at: subtable + 6 + 2 * index, from: subtable), let count = u16(set)
        else { return nil }
        var seconds: [hb_codepoint_t] = []
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
            guard within else { continue }
            guard components >= 2, let second = u16(ligature + 4) else {
                seconds.append(0)
                continue
            }
            seconds.append(hb_codepoint_t(second))
        }
        return seconds
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
