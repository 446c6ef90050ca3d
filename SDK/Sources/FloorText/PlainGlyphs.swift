import CHarfBuzz
import Glibc
import Synchronization

/// The characters of one face that HarfBuzz sets as their own glyph at that glyph's own advance (or, beside
/// the next one, a kerned advance), so that a piece made of them is measured from a table instead of shaped:
/// a price ("¥464.47": 40,097 distinct prices were 660 M instructions of HarfBuzz in the text preview of the
/// 8 MB page, BENCHMARKS.md, issue 23) in the general path (`measure`), and on the plain path (`PlainLines`)
/// every word of printable ASCII and every run of ideographs (`advances`).
///
/// Exact, not a guess: a character is plain when the face's layout tables cannot change it. Worked out once a
/// face from the shape plans HarfBuzz uses for such pieces (`hb_shape_plan_collect_lookups`, for Common, Latin
/// and Han text): a GSUB or GPOS lookup acts at a glyph only if the glyph is in the first coverage of one of
/// its subtables (the glyph substituted or positioned, the first of a context, ligature or pair), so a
/// character whose glyph is in none is left as it is (`LayoutTable`). Looked into further, for the ASCII
/// candidates, in a piece made of them only: a context of format 3 one of whose positions covers none of them
/// never matches (Noto Sans's "i" and "j" before a combining mark); a ligature that needs a glyph other than
/// theirs never forms (Noto Sans's "0" + U+FE00, a slashed zero), and one made of theirs ("f" + "i") forms
/// only where its first two stand side by side, so a piece holding such a pair is not measured here; pair
/// positioning that moves only the first glyph (kerning) is tried: each pair of plain characters whose first
/// is in a pair subtable's coverage is shaped the first time it is met, and HarfBuzz's advance for the first
/// kept (Noto Sans kerns "To"; `measure`, for prices, takes no kerned pair). An ideograph is looked into the
/// first time it is met, strictly: in no first coverage at all. Lookups of the automatic fractions alone
/// (frac, numr, dnom) are left out: HarfBuzz applies them only around U+2044, which no plain piece holds. A
/// face with tables HarfBuzz applies outside GSUB and GPOS (kern, kerx, morx, mort, trak), or without GPOS, has
/// no plain characters, and neither has one whose tables do not parse. Each ASCII candidate is also shaped
/// alone the first time it is met, and must give its nominal glyph at its nominal advance. An ideograph is
/// not: in no first coverage, no decomposition (U+4E00-U+9FFF has none) and no mark, nothing in HarfBuzz
/// moves it, and shaping each of a page's thousands of distinct ideographs alone to see so was 36 M
/// instructions of the json render of a page of 6,000 distinct words (BENCHMARKS.md, issue 23);
/// PlainGlyphsTests shapes every ideograph of both CJK faces alone against the table. Used under the engine's
/// lock.
final class PlainGlyphs {
    /// The characters that may be plain: printable ASCII (the space and letters too) and ¢ £ ¥. All of them
    /// but the letters are of the Common script and the letters of the Latin: the lookups of both scripts'
    /// shape plans are looked into (and the Han script's, for the ideographs).
    static let candidates: [UInt16] = (0x20...0x7E).map { UInt16($0) } + [0xA2, 0xA3, 0xA5]

    /// The ideographs that may be plain (CJK Unified Ideographs, U+4E00-U+9FFF), each looked into the first
    /// time it is met.
    static let ideographs: ClosedRange<UInt16> = 0x4E00...0x9FFF

    /// Whether a piece that starts with `unit` is worth measuring here in the general path (`Shaper`): a
    /// price's characters, the candidates but letters and the space (a word is found in the shaped pieces).
    static func isCandidate(_ unit: UInt16) -> Bool { unit < 0x100 && priceUnits[Int(unit)] }

    private static let priceUnits: [Bool] = (0..<0x100).map {
        candidates.contains(UInt16($0)) && !(0x41...0x5A).contains($0) && !(0x61...0x7A).contains($0) && $0 != 0x20
    }

    /// The words of a face's `covered` bits: a bit a glyph id below 0x10000.
    static let coveredWords = 0x10000 / 64

    /// Room for the candidates: 98 of them.
    private static let room = 128

    /// By UTF-16 unit below 0x100: 0 when not plain, else 1 + its place in `candidates`.
    private let slot = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x100)
    /// By place in `candidates`: the glyph's advance in font units (0 until shaped alone).
    private let advance = UnsafeMutablePointer<Int32>.allocate(capacity: room)
    /// By place in `candidates`: its nominal glyph.
    private let glyph = UnsafeMutablePointer<hb_codepoint_t>.allocate(capacity: room)
    /// By place in `candidates`: whether it has been shaped alone (and gave its nominal glyph and advance).
    private let shapedAlone = UnsafeMutablePointer<Bool>.allocate(capacity: room)
    /// By place in `candidates`: whether a pair subtable covers it, so each pair it starts is shaped once.
    private let startsPairs = UnsafeMutablePointer<Bool>.allocate(capacity: room)
    /// By pair of places (first x room + second): what HarfBuzz does with the pair (`Pair`), and for a kerned
    /// one the first's advance beside the second.
    private let pairs: UnsafeMutablePointer<UInt8>
    private let pairAdvance: UnsafeMutablePointer<Int32>
    /// By ideograph (unit - 0x4E00), four bits each, the even one in the low half of a byte:
    /// `Ideograph.unknown` until looked into, `Ideograph.notPlain`, else `Ideograph.firstAdvance` + the place
    /// of its advance in `ideographAdvances`. 10.5 KB, where an advance each was 84 KB: a page of thousands of
    /// distinct ideographs reads this at random, and at four bytes an ideograph it did not stay in the
    /// first-level cache (BENCHMARKS.md, issue 23, "Ideographs' advances in four bits").
    private let ideograph: UnsafeMutablePointer<UInt8>
    /// The distinct advances of the plain ideographs met (a CJK face has one or a few: full width).
    private let ideographAdvances = UnsafeMutablePointer<Int32>.allocate(capacity: Ideograph.advanceRoom)
    private var ideographAdvanceCount = 0
    /// The memory of `pairAdvance`, `ideograph` and `pairs` (91 KB, in that order): zero pages of the
    /// kernel's, which take memory only where a pair or an ideograph is met (else allocated and zeroed).
    private let zeroed: UnsafeMutableRawPointer
    private let zeroedMapped: Bool
    private static let zeroedBytes = 4 * pairBytes + ideographBytes + pairBytes

    /// What `ideograph` holds for one.
    private enum Ideograph {
        static let unknown: UInt8 = 0
        static let notPlain: UInt8 = 1
        static let firstAdvance: UInt8 = 2
        /// Advances beyond these many distinct ones (a CJK face has one or a few: full width) make their
        /// ideographs not plain: still measured exactly, by the general path.
        static let advanceRoom = Int(0x0F - firstAdvance) + 1
    }

    /// Ideograph `index`'s four bits of `ideograph`.
    @inline(__always)
    private static func entry(_ ideograph: UnsafeMutablePointer<UInt8>, _ index: Int) -> UInt8 {
        ideograph[index &>> 1] &>> UInt8(truncatingIfNeeded: (index & 1) &<< 2) & 0x0F
    }
    /// By glyph id, a bit a glyph: set where a lookup of the face's plans may act (`LayoutTable.markCovered`),
    /// for the ideographs, read once from the tables so that looking into an ideograph touches none of their
    /// pages; nil when a table did not parse (no ideograph is plain then).
    private var covered: UnsafeMutablePointer<UInt64>?
    /// Characters and pairs shaped, and ideographs looked into, as they were met (none once all are taken from
    /// kept facts: `adopt`).
    private(set) var learnedAsMet = 0
    /// The face that keeps this (`FontFace.plain`).
    private unowned let face: FontFace
    /// The shaper's HarfBuzz buffer (it outlives this).
    private let buffer: OpaquePointer

    /// What shaping a pair of candidates side by side gives.
    private enum Pair {
        static let unknown: UInt8 = 0
        /// Each at its own advance.
        static let apart: UInt8 = 1
        /// The first's advance changed (kerning), kept in `pairAdvance`.
        static let kerned: UInt8 = 2
        /// Anything else (a ligature of the two forms): a piece holding the pair is not measured here.
        static let refused: UInt8 = 3
    }

    private static let pairBytes = room * room
    private static let ideographBytes = (Int(ideographs.upperBound - ideographs.lowerBound) + 2) / 2

    deinit {
        slot.deallocate()
        advance.deallocate()
        glyph.deallocate()
        shapedAlone.deallocate()
        startsPairs.deallocate()
        ideographAdvances.deallocate()
        if zeroedMapped { munmap(zeroed, Self.zeroedBytes) } else { zeroed.deallocate() }
        covered?.deallocate()
    }

    /// Adds the advances of units start..<end of the face (font units times `scale`) to `result` and returns
    /// true when every unit is a price's plain character (`isCandidate`) and no two side by side kern; else
    /// returns false and leaves `result`. A candidate, and a pair a pair subtable may move, is shaped the
    /// first time it is met (a few dozen shapes in all, where shaping every pair up front was 10 M
    /// instructions of every json render).
    func measure(
        _ units: UnsafeBufferPointer<UInt16>, start: Int, end: Int, scale: Double,
        into result: UnsafeMutablePointer<Double>
    ) -> Bool {
        var previous = -1
        var i = start
        while i < end {
            let unit = units[i]
            guard Self.isCandidate(unit) else { return false }
            let k = Int(slot[Int(unit)]) - 1
            guard k >= 0 else { return false }
            if !shapedAlone[k] {
                guard shapeAlone(k) else { return false }
            }
            if previous >= 0 && startsPairs[previous] && pair(previous, k) != Pair.apart { return false }
            previous = k
            i += 1
        }
        for i in start..<end { result[i] += Double(advance[Int(slot[Int(units[i])]) - 1]) * scale }
        return true
    }

    /// The advance of each of `count` units (one character each: candidates, or ideographs) of one piece as
    /// HarfBuzz shapes it in this face, in font units times `scale`, into `advances` (as `Shaper` computes
    /// it: one product a unit): the character's own advance, or beside the next one the kerned advance of
    /// the pair; false (`advances` left undefined) when a unit is not plain or a pair of them is shaped
    /// otherwise (a ligature). Candidates and ideographs are not measured in one piece: each set is known
    /// plain among its own.
    func advances(
        _ units: UnsafePointer<UInt16>, count: Int, scale: Double, into advances: UnsafeMutablePointer<Double>
    ) -> Bool {
        while true {
            let found = known(units, count: count, scale: scale, into: advances)
            if found == Self.measured { return true }
            if found == Self.refused { return false }
            // A character or a pair met for the first time: shaped (once), then the piece again.
            let unit = units[found]
            if unit >= 0x100 {
                lookInto(unit)
                continue
            }
            let k = Int(slot[Int(unit)]) - 1
            if !shapedAlone[k] {
                _ = shapeAlone(k)
            } else {
                shapePair(Int(slot[Int(units[found - 1])]) - 1, k)
            }
        }
    }

    /// What `known` answers besides the place of a character or pair to learn.
    private static let measured = -1
    private static let refused = -2

    /// `advances` from what is known already, with no call in the loop (so its tables stay in registers):
    /// `measured`, `refused`, or the place of the first character not yet looked into, or that ends a pair
    /// not yet shaped.
    private func known(
        _ units: UnsafePointer<UInt16>, count: Int, scale: Double, into advances: UnsafeMutablePointer<Double>
    ) -> Int {
        guard count > 0 else { return Self.measured }
        // Local copies of the tables: the stores into `advances` would make the loop load them again.
        if units[0] >= 0x100 {
            let ideograph = self.ideograph
            let ideographAdvances = self.ideographAdvances
            for i in 0..<count {
                // An ideograph is plain only where no lookup may act at it: it starts no pair.
                let unit = units[i]
                guard Self.ideographs.contains(unit) else { return Self.refused }
                let entry = Self.entry(ideograph, Int(unit &- Self.ideographs.lowerBound))
                guard entry >= Ideograph.firstAdvance else {
                    if entry == Ideograph.unknown { return i }
                    return Self.refused
                }
                advances[i] = Double(ideographAdvances[Int(entry &- Ideograph.firstAdvance)]) * scale
            }
            return Self.measured
        }
        let slot = self.slot
        let advance = self.advance
        let shapedAlone = self.shapedAlone
        let startsPairs = self.startsPairs
        let pairs = self.pairs
        let pairAdvance = self.pairAdvance
        var previous = -1
        for i in 0..<count {
            let unit = units[i]
            guard unit < 0x100 else { return Self.refused }
            let k = Int(slot[Int(unit)]) &- 1
            guard k >= 0 else { return Self.refused }
            guard shapedAlone[k] else { return i }
            advances[i] = Double(advance[k]) * scale
            if previous >= 0 && startsPairs[previous] {
                let p = previous &* Self.room &+ k
                let state = pairs[p]
                if state == Pair.kerned {
                    advances[i - 1] = Double(pairAdvance[p]) * scale
                } else if state == Pair.unknown {
                    return i
                } else if state != Pair.apart {
                    return Self.refused
                }
            }
            previous = k
        }
        return Self.measured
    }

    /// What HarfBuzz does with candidates a and b side by side (shaped the first time).
    private func pair(_ a: Int, _ b: Int) -> UInt8 {
        let state = pairs[a &* Self.room &+ b]
        if state != Pair.unknown { return state }
        shapePair(a, b)
        return pairs[a &* Self.room &+ b]
    }

    /// Shapes candidate k alone; false (and no longer a candidate) unless it gives its nominal glyph and advance.
    private func shapeAlone(_ k: Int) -> Bool {
        learnedAsMet += 1
        let nominal = hb_font_get_glyph_h_advance(face.font, glyph[k])
        var text = [Self.candidates[k]]
        guard Self.shapes(buffer, face: face, text: &text, glyphs: [glyph[k]], advances: [nominal]) != nil else {
            slot[Int(Self.candidates[k])] = 0
            return false
        }
        advance[k] = nominal
        shapedAlone[k] = true
        return true
    }

    /// Shapes candidates a and b (each plain alone) side by side, and notes what HarfBuzz did: nothing, moved
    /// the first's advance (kept), or anything else.
    private func shapePair(_ a: Int, _ b: Int) {
        var text = [Self.candidates[a], Self.candidates[b]]
        let p = a * Self.room + b
        guard pairs[p] == Pair.unknown else { return }
        learnedAsMet += 1
        guard
            let first = Self.shapes(
                buffer, face: face, text: &text, glyphs: [glyph[a], glyph[b]], advances: [nil, advance[b]])
        else {
            pairs[p] = Pair.refused
            return
        }
        if first == advance[a] {
            pairs[p] = Pair.apart
        } else {
            pairAdvance[p] = first
            pairs[p] = Pair.kerned
        }
    }

    /// Looks into an ideograph the first time it is met: plain (its advance kept) when the face maps it to a
    /// glyph of its own that is no mark, in no lookup's first coverage, with an advance, and that advance is
    /// one of the first `Ideograph.advanceRoom` distinct ones; else not plain. (Not shaped alone to confirm
    /// it: see the type's comment.)
    private func lookInto(_ unit: UInt16) {
        learnedAsMet += 1
        var entry = Ideograph.notPlain
        defer {
            let index = Int(unit - Self.ideographs.lowerBound)
            let shift = UInt8((index & 1) << 2)
            ideograph[index >> 1] = ideograph[index >> 1] & ~(0x0F << shift) | entry << shift
        }
        var nominal: hb_codepoint_t = 0
        guard let covered, let hbFace = hb_font_get_face(face.font),
            hb_font_get_nominal_glyph(face.font, hb_codepoint_t(unit), &nominal) != 0, nominal != 0, nominal < 0x10000,
            covered[Int(nominal >> 6)] & 1 << UInt64(nominal & 63) == 0,
            hb_ot_layout_get_glyph_class(hbFace, nominal) != HB_OT_LAYOUT_GLYPH_CLASS_MARK
        else { return }
        let own = hb_font_get_glyph_h_advance(face.font, nominal)
        guard own > 0 else { return }
        var place = 0
        while place < ideographAdvanceCount && ideographAdvances[place] != own { place += 1 }
        guard place < Ideograph.advanceRoom else { return }
        if place == ideographAdvanceCount {
            ideographAdvances[place] = own
            ideographAdvanceCount += 1
        }
        entry = Ideograph.firstAdvance + UInt8(place)
    }

    /// The characters of `face` its layout tables leave alone, shaped with `buffer` (HarfBuzz's, cleared
    /// before each use) as they are met; with facts kept in `folder` (FontFactsCache), all of them taken from
    /// there, or worked out at once and kept there.
    init(face: FontFace, buffer: OpaquePointer, keptIn folder: String? = FontFactsCache.currentDirectory) {
        self.face = face
        self.buffer = buffer
        slot.initialize(repeating: 0, count: 0x100)
        advance.initialize(repeating: 0, count: Self.room)
        glyph.initialize(repeating: 0, count: Self.room)
        shapedAlone.initialize(repeating: false, count: Self.room)
        startsPairs.initialize(repeating: false, count: Self.room)
        let pages = mmap(nil, Self.zeroedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        zeroedMapped = pages != nil && pages != MAP_FAILED
        if let pages, zeroedMapped {
            zeroed = pages
        } else {
            zeroed = .allocate(byteCount: Self.zeroedBytes, alignment: 8)
            zeroed.initializeMemory(as: UInt8.self, repeating: 0, count: Self.zeroedBytes)
        }
        pairAdvance = zeroed.bindMemory(to: Int32.self, capacity: Self.pairBytes)
        ideograph = (zeroed + 4 * Self.pairBytes).bindMemory(to: UInt8.self, capacity: Self.ideographBytes)
        pairs = (zeroed + 4 * Self.pairBytes + Self.ideographBytes).bindMemory(
            to: UInt8.self, capacity: Self.pairBytes)
        guard let facts = TableFacts.of(face, buffer: buffer, keptIn: folder) else { return }
        let marked = UnsafeMutablePointer<UInt64>.allocate(capacity: facts.covered.count)
        _ = UnsafeMutableBufferPointer(start: marked, count: facts.covered.count).initialize(from: facts.covered)
        covered = marked
        let candidates = Self.candidates
        for k in candidates.indices {
            if facts.startsPairs[k] { startsPairs[k] = true }
            guard facts.glyphs[k] != 0 else { continue }
            glyph[k] = facts.glyphs[k]
            slot[Int(candidates[k])] = UInt8(k + 1)
        }
        // A ligature that may form among candidates: a piece holding its first two is left to HarfBuzz.
        for (k, j) in facts.ligatures {
            startsPairs[k] = true
            pairs[k * Self.room + j] = Pair.refused
        }
        // Where facts are kept between processes, every candidate, pair and ideograph is worked out once, when
        // they are first kept, and taken as they are after: nothing is shaped or looked into as it is met.
        if let learned = facts.learned {
            adopt(learned)
        } else if let folder {
            var whole = facts
            whole.learned = learnAll()
            TableFacts.keep(whole, of: face, in: folder)
        }
    }

    /// Every candidate, pair and ideograph of the face worked out (`Learned`): what `adopt` takes.
    private func learnAll() -> Learned {
        let candidates = Self.candidates
        for k in candidates.indices where slot[Int(candidates[k])] != 0 && !shapedAlone[k] { _ = shapeAlone(k) }
        for a in candidates.indices where shapedAlone[a] && startsPairs[a] {
            for b in candidates.indices where shapedAlone[b] { shapePair(a, b) }
        }
        var plainIdeographs = false
        for unit in Self.ideographs {
            let index = Int(unit - Self.ideographs.lowerBound)
            if Self.entry(ideograph, index) == Ideograph.unknown { lookInto(unit) }
            plainIdeographs = plainIdeographs || Self.entry(ideograph, index) >= Ideograph.firstAdvance
        }
        let n = candidates.count
        var learned = Learned(
            alone: candidates.indices.map { shapedAlone[$0] ? advance[$0] : nil },
            pairs: [UInt8](repeating: Pair.unknown, count: n * n), kerned: [], ideographs: [], ideographAdvances: [])
        for a in 0..<n {
            for b in 0..<n {
                let state = pairs[a * Self.room + b]
                learned.pairs[a * n + b] = state
                if state == Pair.kerned { learned.kerned.append((a * n + b, pairAdvance[a * Self.room + b])) }
            }
        }
        // A face that draws no ideograph (the sans faces) keeps none: the shaper never asks it about one.
        if plainIdeographs {
            learned.ideographs = Array(UnsafeBufferPointer(start: ideograph, count: Self.ideographBytes))
            learned.ideographAdvances = Array(
                UnsafeBufferPointer(start: ideographAdvances, count: ideographAdvanceCount))
        }
        return learned
    }

    /// Takes what `learnAll` worked out for this face (in another process), as if every candidate, pair and
    /// ideograph had been met. Only what differs from the zero pages is written (`zeroed`).
    private func adopt(_ learned: Learned) {
        let candidates = Self.candidates
        let n = candidates.count
        for k in 0..<n {
            if let alone = learned.alone[k] {
                advance[k] = alone
                shapedAlone[k] = true
            } else {
                slot[Int(candidates[k])] = 0
            }
        }
        for a in 0..<n where startsPairs[a] {
            for b in 0..<n where learned.pairs[a * n + b] != Pair.unknown {
                pairs[a * Self.room + b] = learned.pairs[a * n + b]
            }
        }
        for (index, first) in learned.kerned { pairAdvance[index / n * Self.room + index % n] = first }
        guard !learned.ideographs.isEmpty else { return }
        _ = UnsafeMutableBufferPointer(start: ideograph, count: Self.ideographBytes).initialize(
            from: learned.ideographs)
        ideographAdvanceCount = learned.ideographAdvances.count
        _ = UnsafeMutableBufferPointer(start: ideographAdvances, count: Ideograph.advanceRoom).initialize(
            from: learned.ideographAdvances)
    }

    /// A face's candidates, pairs and ideographs all worked out (`learnAll`), kept with its TableFacts.
    struct Learned: Sendable {
        /// By place in `candidates`: its advance alone, nil when it is not plain (no glyph, or shaped otherwise).
        var alone: [Int32?]
        /// By pair of places (first x candidates + second): what shaping them side by side gives (`Pair`).
        var pairs: [UInt8]
        /// The kerned pairs (place in `pairs`) and the first's advance beside the second.
        var kerned: [(Int, Int32)]
        /// `ideograph`'s bytes (empty: the face draws no ideograph) and the advances its entries refer to.
        var ideographs: [UInt8]
        var ideographAdvances: [Int32]

        /// What a kept file may hold (FontFactsCache checks it before it is taken).
        static let pairStates: ClosedRange<UInt8> = Pair.unknown...Pair.refused
        static let ideographBytes = PlainGlyphs.ideographBytes
        static let ideographAdvanceRoom = Ideograph.advanceRoom
        static let firstIdeographAdvance = Ideograph.firstAdvance
    }

    /// What a face's layout tables say about its candidates, the same for every engine's copy of the face: read
    /// once a font file and kept for the process (the text preview's writer has an engine of its own,
    /// TextEngine.second, whose faces read the tables again: 3.7 M instructions a face, 15 M of the writer's
    /// thread on the 8 MB page; BENCHMARKS.md, issue 23). Nil: the face has no plain characters.
    struct TableFacts: Sendable {
        /// By place in `candidates`: its nominal glyph, 0 when it is not plain.
        let glyphs: [hb_codepoint_t]
        /// By place in `candidates`: whether a pair subtable covers it.
        let startsPairs: [Bool]
        /// Pairs of places a ligature may form from.
        let ligatures: [(Int, Int)]
        /// By glyph id, a bit a glyph: where a lookup of the face's plans may act.
        let covered: [UInt64]
        /// Every candidate, pair and ideograph worked out: where facts are kept between processes, else nil.
        var learned: Learned? = nil

        private static let known = Mutex<[Int: TableFacts?]>([:])

        /// `face`'s facts, the first time a face of its file is asked about in this process taken from `folder`
        /// (FontFactsCache) where they are kept there, else read from its tables with `buffer`. Facts read with
        /// plain characters have no `learned` yet: PlainGlyphs works it out and `keep`s them whole.
        static func of(_ face: FontFace, buffer: OpaquePointer, keptIn folder: String?) -> TableFacts? {
            if face.id >= 0, let facts = known.withLock({ $0[face.id] }) { return facts }
            let facts: TableFacts?
            if let folder, let kept = FontFactsCache.load(face, from: folder) {
                facts = kept
            } else {
                facts = read(face, buffer: buffer)
                if facts == nil, let folder { FontFactsCache.store(nil, of: face, in: folder) }
            }
            if face.id >= 0 { known.withLock { $0[face.id] = facts } }
            return facts
        }

        /// Keeps `facts` (with `learned`) in `folder` and for this process's later faces of the file.
        static func keep(_ facts: TableFacts, of face: FontFace, in folder: String) {
            FontFactsCache.store(facts, of: face, in: folder)
            if face.id >= 0 { known.withLock { $0[face.id] = facts } }
        }

        static func read(_ face: FontFace, buffer: OpaquePointer) -> TableFacts? {
            let candidates = PlainGlyphs.candidates
            // The tables' pages read here are not read again.
            defer { face.handBack() }
            guard let hbFace = hb_font_get_face(face.font), PlainGlyphs.appliesOnlyGSUBAndGPOS(hbFace) else {
                return nil
            }

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

            // The lookups HarfBuzz's plans apply to a piece of Common, Latin or Han characters ("1", "a", "一").
            var marked = [UInt64](repeating: 0, count: PlainGlyphs.coveredWords)
            var startsPairs = [Bool](repeating: false, count: candidates.count)
            var ligatures: [(Int, Int)] = []
            for table in [LayoutTable.Kind.gsub, .gpos] {
                let lookups = hb_set_create()
                defer { hb_set_destroy(lookups) }
                for probe: UInt16 in [0x31, 0x61, 0x4E00] {
                    var one = [probe]
                    PlainGlyphs.fill(buffer, with: &one)
                    var properties = hb_segment_properties_t()
                    hb_buffer_get_segment_properties(buffer, &properties)
                    // Not the face's cached plan: one for a script the face never shapes would stay in memory.
                    guard let plan = hb_shape_plan_create(hbFace, &properties, nil, 0, nil) else { return nil }
                    hb_ot_shape_plan_collect_lookups(plan, table.tag, lookups)
                    hb_shape_plan_destroy(plan)
                }
                PlainGlyphs.removeFractionOnly(lookups, face: hbFace, table: table.tag)
                guard let layout = LayoutTable(table, face: hbFace),
                    let covered = layout.coverage(of: glyphs, lookups: lookups),
                    marked.withUnsafeMutableBufferPointer({ layout.markCovered(lookups: lookups, in: $0.baseAddress!) })
                else { return nil }
                for k in candidates.indices {
                    if covered.other[k] { glyphs[k] = 0 }
                    if covered.pair[k] { startsPairs[k] = true }
                }
                ligatures += covered.ligatures
            }
            return TableFacts(glyphs: glyphs, startsPairs: startsPairs, ligatures: ligatures, covered: marked)
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

    /// Whether HarfBuzz gives `text` one glyph a unit, `glyphs`, at `advances` (nil: any), as the engine shapes
    /// a piece: the first glyph's advance when it does, else nil.
    private static func shapes(
        _ buffer: OpaquePointer, face: FontFace, text: inout [UInt16], glyphs: [hb_codepoint_t], advances: [Int32?]
    ) -> Int32? {
        fill(buffer, with: &text)
        hb_shape(face.font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), Int(count) == glyphs.count,
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return nil }
        for g in 0..<glyphs.count {
            guard infos[g].codepoint == glyphs[g], infos[g].cluster == UInt32(g),
                advances[g] == nil || positions[g].x_advance == advances[g]
            else { return nil }
        }
        return positions[0].x_advance
    }
}
