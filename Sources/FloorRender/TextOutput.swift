import FloorCore

#if canImport(Glibc)
import Glibc
#endif

/// The text preview's output, held in memory until every plugin call has returned (ARCHITECTURE.md, "Output
/// contract"): its bytes end to end, except that a line equal to one of the distinct lines written shortly before
/// is held as a reference to where that line's bytes already are. A long page's preview is mostly a few lines
/// over and over (a card's bottom border and the rule under it: the 8 MB page's 23.5 MB of text are held in
/// 11.5 MB), and every byte held is memory touched for the first time, which on a virtual machine that hands
/// free memory back to its host can cost more than drawing it (BENCHMARKS.md, issue 23, "Output held once a
/// line"). What it holds is written out with the pieces gathered (`write(to:)`), never copied end to end.
///
/// Writing: append a line's bytes to `bytes`, its line break included, then call `endLine(from:)` with where
/// the line began; bytes appended without `endLine` (a title, the footer) are kept as they are.
package struct TextOutput {
    /// The bytes held, in order, without the lines held as references. Appended to directly; a line's
    /// `endLine(from:)` may take its bytes back off the end.
    package var bytes: [UInt8] = []
    /// The lines held as references, in the order of their place in the output.
    private var repeats: [Repeat] = []
    /// The distinct lines written last, in sets of two chosen by the line's hash: a line not among them takes
    /// the place of the one of its set used longer ago.
    private var recent: [Recent]
    /// Lines ended so far: when each recent line was last used.
    private var lines = 0

    /// `count` bytes of `bytes` from `source`, written out before the held byte at `at` (and after the pieces
    /// before it).
    private struct Repeat {
        var at: Int
        var source: Int
        var count: Int
    }

    private struct Recent {
        var hash: UInt64 = 0
        var start = 0
        var count = 0
        var used = 0
    }

    /// Lines shorter than this are held as they are: a reference would be larger than the bytes it replaces.
    static let shortestRepeated = 32
    /// Sets of recent lines. The 8 MB page's cards repeat two long lines each (a bottom border and a rule),
    /// among three that are their own (titles and prices).
    static let recentSets = 32

    package init() {
        recent = Array(repeating: Recent(), count: 2 * Self.recentSets)
    }

    /// The number of bytes written out (`expanded.count`).
    package var count: Int { bytes.count + repeats.reduce(0) { $0 + $1.count } }

    package var isEmpty: Bool { bytes.isEmpty && repeats.isEmpty }

    /// How many references it holds (each one or more lines written out from bytes held before them).
    package var references: Int { repeats.count }

    /// Everything written out, in one array (a screen's few dozen lines; tests).
    package var expanded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        forEachPiece { out.append(contentsOf: $0) }
        return out
    }

    /// The bytes appended since `start` are one line (or a run of blank ones), its line break included. When
    /// the line before was held as a reference and the bytes after what it references are these, the reference
    /// grows over them (a card's bottom border, the blank line and the rule under it are one reference); else,
    /// when a line of at least `shortestRepeated` bytes equal to this one is among the recent ones, they are
    /// held as a reference to it; otherwise kept, and remembered as recent. Returns where the line's bytes are
    /// held, for good (`repeatLine(from:count:)` may name them).
    @inline(__always) @discardableResult
    package mutating func endLine(from start: Int) -> Int {
        let count = bytes.count &- start
        guard count > 0 else { return start }
        if let last = repeats.last, last.at == start {
            let next = last.source &+ last.count
            if next &+ count <= start,
                bytes.withUnsafeBytes({ memcmp($0.baseAddress! + next, $0.baseAddress! + start, count) == 0 })
            {
                bytes.removeLast(count)
                repeats[repeats.count &- 1].count &+= count
                return next
            }
        }
        guard count >= Self.shortestRepeated else { return start }
        lines &+= 1
        let hash = bytes.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        let set = 2 &* (Int(truncatingIfNeeded: hash) & (Self.recentSets &- 1))
        for way in set..<(set &+ 2) {
            let seen = recent[way]
            guard seen.hash == hash, seen.count == count,
                bytes.withUnsafeBytes({ memcmp($0.baseAddress! + seen.start, $0.baseAddress! + start, count) == 0 })
            else { continue }
            recent[way].used = lines
            bytes.removeLast(count)
            repeats.append(Repeat(at: start, source: seen.start, count: count))
            return seen.start
        }
        let older = recent[set].used <= recent[set &+ 1].used ? set : set &+ 1
        recent[older] = Recent(hash: hash, start: start, count: count, used: lines)
        return start
    }

    /// Appends again the `count` bytes (at least `shortestRepeated`) held at `source`, a line `endLine` answered
    /// for: a reference to them, or the reference before grown over them when they follow what it names.
    package mutating func repeatLine(from source: Int, count: Int) {
        if let last = repeats.last, last.at == bytes.count, last.source &+ last.count == source {
            repeats[repeats.count &- 1].count &+= count
            return
        }
        repeats.append(Repeat(at: bytes.count, source: source, count: count))
    }

    /// The pieces written out, in order (held bytes and the lines they reference), each handed to `body`.
    private func forEachPiece<Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        // Array's withUnsafeBytes throws untyped errors: `body`'s is carried out of it.
        var failure: Failure?
        bytes.withUnsafeBytes { all in
            do throws(Failure) {
                var at = 0
                for piece in repeats {
                    if piece.at > at { try body(UnsafeRawBufferPointer(rebasing: all[at..<piece.at])) }
                    try body(UnsafeRawBufferPointer(rebasing: all[piece.source..<(piece.source + piece.count)]))
                    at = piece.at
                }
                if all.count > at { try body(UnsafeRawBufferPointer(rebasing: all[at...])) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Writes everything out to `output`, its pieces gathered a batch of writes at a time (writev): no copy of
    /// the whole is made.
    package func write(to output: HostOutput) throws(HostOutput.Failure) {
        var batch: [iovec] = []
        batch.reserveCapacity(HostOutput.piecesAWrite)
        try forEachPiece { piece throws(HostOutput.Failure) in
            batch.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count))
            if batch.count == HostOutput.piecesAWrite {
                try output.write(gathering: &batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try output.write(gathering: &batch) }
    }

    /// A hash of a line's length and of two of its words (at its middle and its end: lines of a card start
    /// alike), its bits mixed (lines that differ little must differ in the bits that choose their set). Lines
    /// equal in those are told apart by their bytes, compared in full before any is held as a reference.
    @inline(__always)
    private static func hash(_ line: UnsafeRawBufferPointer) -> UInt64 {
        let base = line.baseAddress!
        let count = line.count
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        h ^= base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= base.loadUnaligned(fromByteOffset: (count >> 1) &- 4, as: UInt64.self)
        h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }
}
