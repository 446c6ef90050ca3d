import CHarfBuzz

/// Per-character font fallback and HarfBuzz shaping: the advance of every UTF-16 unit of a text (a
/// cluster's advance on its first unit, 0 on the rest), in points. Each character goes to the first face of
/// the style's weight that has it, Noto Sans, then Noto Sans CJK, then Noto Color Emoji, except that a
/// character with emoji presentation (or followed by U+FE0F) tries the emoji face first; marks, joiners and
/// selectors stay with the character before them. That is the order of the preview's CSS font list, so the
/// browser picks the same face for each character. A run of one face is shaped in pieces, each a word with
/// the spaces before it (a CJK run between spaces is one word), shaped once per face and kept
/// (`ShapedPieces`), since text repeats its words. Used under the engine's lock (the HarfBuzz buffer is
/// reused).
final class Shaper {
    private let buffer: OpaquePointer
    private let pieces = ShapedPieces(capacity: 16_384)
    /// Glyphs shaped since the process started (benchmarks read it through the engine's counters).
    private(set) var glyphs = 0
    /// Scratch kept between calls (`capacity` units): each unit's advance, and the face chosen for it.
    /// Raw memory, so that the per-character loops pay no exclusivity check on a class's array.
    private var capacity = 0
    private var result = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    private var choice = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)

    init() { buffer = hb_buffer_create() }
    deinit {
        hb_buffer_destroy(buffer)
        result.deallocate()
        choice.deallocate()
    }

    private func reserve(_ n: Int) {
        guard n > capacity else { return }
        result.deallocate()
        choice.deallocate()
        capacity = max(n, 2 * capacity, 64)
        result = .allocate(capacity: capacity)
        choice = .allocate(capacity: capacity)
    }

    /// The faces in fallback order for one weight; the first is the primary. A class, so that the face
    /// chosen for each character of the Basic Multilingual Plane is worked out once and kept.
    final class Faces {
        let sans: FontFace?
        let cjk: FontFace?
        let emoji: FontFace?
        let list: [FontFace?]
        /// `list`, each face else the first present, unretained (`list` keeps them): what each piece is
        /// shaped in, with no retain and release a piece (13 M instructions of the json render).
        fileprivate let drawing = UnsafeMutablePointer<Unmanaged<FontFace>?>.allocate(capacity: 3)
        /// By BMP scalar, four bits each, the even scalar's in the low half of a byte: 0 not yet known, else
        /// 1 + the face `choose` picks (followed by an ordinary character), plus `continuesBit` when the
        /// scalar continues the cluster before it. 32 KB, where a byte a scalar was 64 KB: the plain path
        /// reads it at random for every ideograph of a page of thousands of distinct ones (BENCHMARKS.md,
        /// issue 23, "Ideographs' advances in four bits").
        fileprivate let known = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x10000 / 2)

        /// `known`'s four bits for `scalar`.
        @inline(__always)
        fileprivate func entry(_ scalar: UInt32) -> UInt8 {
            known[Int(scalar &>> 1)] &>> UInt8(truncatingIfNeeded: (scalar & 1) &<< 2) & 0x0F
        }

        fileprivate func setEntry(_ scalar: UInt32, _ entry: UInt8) {
            let shift = UInt8((scalar & 1) << 2)
            known[Int(scalar >> 1)] = known[Int(scalar >> 1)] & ~(0x0F << shift) | entry << shift
        }

        /// The face `Shaper.pick` gives a character of the Basic Multilingual Plane that continues no cluster,
        /// followed by neither U+FE0E nor U+FE0F, when it is known already (a table look-up, no call); else
        /// 0xFF, and `pick` works it out.
        @inline(__always)
        func knownPick(_ scalar: UInt32) -> UInt8 {
            (entry(scalar) & Self.pickBits) &- 1
        }
        /// By place in `list`: the drawing face's plain characters (`FontFace.plain`) once `plainPiece` has
        /// looked for them, unretained (the face keeps them), so that a piece retains nothing.
        fileprivate let plain = UnsafeMutablePointer<Unmanaged<PlainGlyphs>?>.allocate(capacity: 3)
        fileprivate static let pickBits: UInt8 = 0x03
        fileprivate static let continuesBit: UInt8 = 0x04

        init(sans: FontFace?, cjk: FontFace?, emoji: FontFace?) {
            self.sans = sans
            self.cjk = cjk
            self.emoji = emoji
            list = [sans, cjk, emoji]
            known.initialize(repeating: 0, count: 0x10000 / 2)
            plain.initialize(repeating: nil, count: 3)
            let fallback = sans ?? cjk ?? emoji
            for (i, face) in list.enumerated() {
                (drawing + i).initialize(to: (face ?? fallback).map(Unmanaged.passUnretained))
            }
        }

        deinit {
            known.deallocate()
            drawing.deallocate()
            plain.deallocate()
        }
    }

    /// Fills `prefix` with the running sums of the advances of `units` in `style`, in points: prefix[i] is the
    /// width of units 0..<i (n + 1 entries; a cluster's advance counts on its first unit). Faces missing
    /// from the machine are skipped; a character no face has is measured in the first face present (its
    /// .notdef box).
    func advances(_ units: UnsafeBufferPointer<UInt16>, faces: Faces, pointSize: Double, into prefix: inout [Double]) {
        let n = units.count
        reserve(n)
        let result = self.result
        let choice = self.choice
        result.update(repeating: 0, count: n)
        defer {
            // n + 1 entries, keeping the array's storage from call to call.
            if prefix.count > n + 1 { prefix.removeLast(prefix.count - n - 1) }
            if prefix.count < n + 1 { prefix.append(contentsOf: repeatElement(0, count: n + 1 - prefix.count)) }
            prefix.withUnsafeMutableBufferPointer { sums in
                var sum = 0.0
                sums[0] = 0
                for i in 0..<n {
                    sum += result[i]
                    sums[i + 1] = sum
                }
            }
        }
        guard n > 0 else { return }
        let ordered = faces.list
        guard faces.sans ?? faces.cjk ?? faces.emoji != nil else { return }
        // 0, 1, 2: which of sans, cjk, emoji draws the unit.
        var i = 0
        var previous: UInt8 = 0
        while i < n {
            let (scalar, length) = Self.scalar(units, at: i)
            let next = i + length < n ? Self.scalar(units, at: i + length).0 : 0
            let pick: UInt8
            if scalar < 0x80 {
                pick = ordered[0] != nil ? 0 : Self.first(scalar, ordered)
            } else if scalar < 0x10000 && next != 0xFE0E && next != 0xFE0F {
                let entry = Self.entry(scalar, faces: faces)
                pick = i > 0 && entry & Faces.continuesBit != 0 ? previous : (entry & Faces.pickBits) - 1
            } else if i > 0 && Self.continuesCluster(scalar) {
                pick = previous
            } else {
                pick = Self.choose(scalar, next: next, faces: ordered)
            }
            // One or two units (a surrogate pair): stored as such, not through a loop the compiler makes a memset.
            choice[i] = pick
            if length == 2 { choice[i + 1] = pick }
            previous = pick
            i += length
        }
        var start = 0
        while start < n {
            let pick = choice[start]
            var end = start + 1
            // A word with the spaces before it (a space kerns with the letter after it: " T", " Y"), within
            // one face: a CJK run stays whole, since its characters kern with its punctuation ("ソ，").
            if units[start] == 0x20 {
                while end < n && choice[end] == pick && units[end] == 0x20 { end += 1 }
            }
            while end < n && choice[end] == pick && units[end] != 0x20 { end += 1 }
            faces.drawing[Int(pick)]?._withUnsafeGuaranteedRef { face in
                piece(units, start: start, end: end, face: face, pointSize: pointSize, into: result)
            }
            start = end
        }
    }

    /// `faces.known`'s entry for a scalar of the Basic Multilingual Plane, worked out the first time.
    @inline(__always)
    private static func entry(_ scalar: UInt32, faces: Faces) -> UInt8 {
        var entry = faces.entry(scalar)
        if entry == 0 {
            entry = 1 + Self.choose(scalar, next: 0, faces: faces.list)
            if Self.continuesCluster(scalar) { entry |= Faces.continuesBit }
            faces.setEntry(scalar, entry)
        }
        return entry
    }

    /// The face (0, 1, 2: sans, cjk, emoji) `advances` picks for `scalar`, a character of the Basic
    /// Multilingual Plane that continues no cluster (no mark, joiner or selector) and is followed by neither
    /// U+FE0E nor U+FE0F.
    func pick(_ scalar: UInt32, faces: Faces) -> UInt8 {
        if scalar < 0x80 { return faces.list[0] != nil ? 0 : Self.first(scalar, faces.list) }
        return (Self.entry(scalar, faces: faces) & Faces.pickBits) - 1
    }

    /// The advances of units start..<end of `units`, a piece as `advances` cuts them (a word with the spaces
    /// before it, of one face, `pick`), into `result` (in points, one a unit, the piece's range overwritten):
    /// from the face's plain characters when each is plain (`PlainGlyphs.advances`), else as `advances`
    /// measures the piece. The same numbers as `advances`, to the bit, either way.
    func plainPiece(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, pick: UInt8, faces: Faces, pointSize: Double,
        into result: UnsafeMutablePointer<Double>
    ) {
        guard let drawing = faces.drawing[Int(pick)] else {
            (result + start).update(repeating: 0, count: end - start)
            return
        }
        drawing._withUnsafeGuaranteedRef { face in
            let table: Unmanaged<PlainGlyphs>
            if let known = faces.plain[Int(pick)] {
                table = known
            } else {
                let made = face.plain ?? PlainGlyphs(face: face, buffer: buffer)
                face.plain = made
                table = Unmanaged.passUnretained(made)
                faces.plain[Int(pick)] = table
            }
            let scale = pointSize / face.unitsPerEm
            let measured = table._withUnsafeGuaranteedRef {
                $0.advances(units.baseAddress! + start, count: end - start, scale: scale, into: result + start)
            }
            if measured { return }
            (result + start).update(repeating: 0, count: end - start)
            piece(units, start: start, end: end, face: face, pointSize: pointSize, into: result)
        }
    }

    private func piece(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, face: FontFace, pointSize: Double,
        into result: UnsafeMutablePointer<Double>
    ) {
        let faceIndex = face.id
        let scale = pointSize / face.unitsPerEm
        guard end - start <= ShapedPieces.maxUnits else {
            shape(units, start: start, end: end, face: face, pointSize: pointSize, into: result)
            return
        }
        let key = ShapedPieces.key(face: faceIndex, units, start, end)
        if let known = pieces.find(key, face: faceIndex, units, start, end) {
            for i in 0..<(end - start) { result[start + i] += Double(known[i]) * scale }
            return
        }
        // Not seen before: a price is measured from the face's plain characters, not shaped (and not kept:
        // a page's prices seldom repeat, and would push its words out of `pieces`).
        if PlainGlyphs.isCandidate(units[start]) {
            let plain = face.plain ?? PlainGlyphs(face: face, buffer: buffer)
            face.plain = plain
            if plain.measure(units, start: start, end: end, scale: scale, into: result) { return }
        }
        // At most `ShapedPieces.maxUnits` advances: on the stack, not an array allocated a piece.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: end - start) { advances in
            advances.initialize(repeating: 0)
            shapeUnits(units, start: start, end: end, face: face) { cluster, advance in
                advances[cluster - start] += advance
            }
            for i in 0..<advances.count { result[start + i] += Double(advances[i]) * scale }
            pieces.insert(key, face: faceIndex, units, start, end, advances: UnsafePointer(advances.baseAddress!))
        }
    }

    private func shape(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, face: FontFace, pointSize: Double,
        into result: UnsafeMutablePointer<Double>
    ) {
        let scale = pointSize / face.unitsPerEm
        shapeUnits(units, start: start, end: end, face: face) { cluster, advance in
            result[cluster] += Double(advance) * scale
        }
    }

    /// HarfBuzz on units start..<end (the rest of `units` is context); each glyph's advance in font units,
    /// given to `add` with its cluster (a UTF-16 offset into `units`).
    private func shapeUnits(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, face: FontFace, add: (Int, Int32) -> Void
    ) {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, units.baseAddress, Int32(units.count), UInt32(start), Int32(end - start))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.font, buffer, nil, 0)
        face.shaped()
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return }
        glyphs += Int(count)
        for g in 0..<Int(count) {
            let cluster = Int(infos[g].cluster)
            guard cluster >= start && cluster < end else { continue }
            add(cluster, positions[g].x_advance)
        }
    }

    private static func choose(_ scalar: UInt32, next: UInt32, faces: [FontFace?]) -> UInt8 {
        if scalar < 0x80 { return faces[0] != nil ? 0 : first(scalar, faces) }
        // Kana, ideographs, Hangul syllables and fullwidth forms: never emoji presentation.
        if Self.isCJKScalar(scalar) && next != 0xFE0F { return first(scalar, faces) }
        if wantsEmoji(scalar, next: next), let emoji = faces[2], emoji.has(scalar) { return 2 }
        return first(scalar, faces)
    }

    private static func first(_ scalar: UInt32, _ faces: [FontFace?]) -> UInt8 {
        var index = 0
        while index < faces.count {
            if let face = faces[index], face.has(scalar) { return UInt8(index) }
            index += 1
        }
        return faces[0] != nil ? 0 : faces[1] != nil ? 1 : 2
    }

    /// Kana, CJK ideographs, Hangul syllables and fullwidth forms: no mark, selector or emoji among them
    /// (the Unicode property look-ups they skip cost more than the rest of a character's work).
    private static func isCJKScalar(_ scalar: UInt32) -> Bool {
        (0x3040...0x9FFF).contains(scalar) || (0xAC00...0xD7A3).contains(scalar) || (0xFF01...0xFF60).contains(scalar)
    }

    /// Emoji presentation: the character's default, or asked for with U+FE0F (U+FE0E asks for text).
    private static func wantsEmoji(_ scalar: UInt32, next: UInt32) -> Bool {
        if next == 0xFE0E { return false }
        guard let s = Unicode.Scalar(scalar) else { return false }
        return s.properties.isEmojiPresentation || (next == 0xFE0F && s.properties.isEmoji)
    }

    /// A scalar that belongs to the cluster before it: a mark, a joiner or selector, an emoji modifier,
    /// a tag or the keycap.
    private static func continuesCluster(_ scalar: UInt32) -> Bool {
        if scalar < 0x300 || isCJKScalar(scalar) { return false }
        switch scalar {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF, 0x20E3:
            return true
        default:
            guard let s = Unicode.Scalar(scalar) else { return false }
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: return true
            default: return false
            }
        }
    }

    /// The scalar at `i` and its length in units; a lone surrogate is U+FFFD of length 1.
    static func scalar(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> (UInt32, Int) {
        let u = units[i]
        if u >= 0xD800 && u < 0xDC00 && i + 1 < units.count {
            let low = units[i + 1]
            if low >= 0xDC00 && low < 0xE000 {
                return (0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(low) - 0xDC00), 2)
            }
        }
        if u >= 0xD800 && u < 0xE000 { return (0xFFFD, 1) }
        return (UInt32(u), 1)
    }
}
