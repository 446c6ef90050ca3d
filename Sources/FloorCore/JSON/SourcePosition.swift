/// Where a byte of a JSON document is, as editors count: `line` and `column` 1-based, lines ending at "\n",
/// columns counting Unicode scalar values from the line's start; `offset` in bytes from the start of the file.
public struct SourcePosition: Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// "line:column", to follow a file name.
    public var description: String { "\(line):\(column)" }

    /// The positions of `offsets` (any order, each clamped into the bytes) in `bytes`, in one pass up to the
    /// largest: cost proportional to that offset plus the number of offsets, whatever their count.
    public static func of(_ offsets: [Int], in bytes: UnsafeRawBufferPointer) -> [Int: SourcePosition] {
        var result: [Int: SourcePosition] = [:]
        var counter = Counter(bytes)
        for offset in Set(offsets.map { max(0, min($0, bytes.count)) }).sorted() {
            result[offset] = counter.position(of: offset, in: bytes)
        }
        for offset in offsets where result[offset] == nil {
            result[offset] = result[max(0, min(offset, bytes.count))]
        }
        return result
    }

    /// Positions found in one pass forward through a document: each asked offset at or after the last one
    /// asked costs the bytes between the two, and the bytes before the last one are never read again (a page
    /// decoded floor by floor hands them back as it goes; PageDecoder).
    public struct Counter: Sendable {
        private var line = 1
        private var column = 1
        /// The next byte to count, and the first (3 past a byte order mark).
        private var next: Int
        private let first: Int

        /// A counter at the start of `bytes` (past a byte order mark, which is not a column, as JSONCursor
        /// counts for its syntax errors).
        public init(_ bytes: UnsafeRawBufferPointer) {
            first = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            next = first
        }

        /// The position of `offset` (clamped into the bytes); nil for one before an offset asked already.
        public mutating func position(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition? {
            let offset = max(0, min(offset, bytes.count))
            // A byte order mark's offsets are the first column's.
            guard offset >= next || (next == first && offset < first) else { return nil }
            // Thirty-two bytes at a time while they hold no newline: a column for each byte that starts a
            // scalar (every byte but the continuation bytes 10xxxxxx). A page is counted to the end of every
            // floor it decodes, so this loop runs over all of its bytes: it keeps to registers and sums the
            // continuation bytes lane by lane, eight lanes of a word, for at most 7 blocks (28 a lane, 224 in
            // all: no lane and no total passes 255) before adding them up. A block holding a newline is
            // counted byte by byte.
            var at = next
            var lanes: UInt64 = 0
            var blocks = 0
            while offset &- at >= 32 {
                let w0 = word(bytes, at)
                let w1 = word(bytes, at &+ 8)
                let w2 = word(bytes, at &+ 16)
                let w3 = word(bytes, at &+ 24)
                if Self.newlines(w0) | Self.newlines(w1) | Self.newlines(w2) | Self.newlines(w3) != 0 {
                    column += blocks &* 32 &- Self.laneSum(lanes)
                    (lanes, blocks, next) = (0, 0, at)
                    count(bytes, upTo: at &+ 32)
                    at = next
                    continue
                }
                lanes &+= Self.continuations(w0) &+ Self.continuations(w1)
                lanes &+= Self.continuations(w2) &+ Self.continuations(w3)
                at &+= 32
                blocks &+= 1
                if blocks == 7 {
                    column += 7 &* 32 &- Self.laneSum(lanes)
                    (lanes, blocks) = (0, 0)
                }
            }
            column += blocks * 32 - Self.laneSum(lanes)
            next = at
            count(bytes, upTo: offset)
            return SourcePosition(line: line, column: column, offset: offset)
        }

        @inline(__always) private func word(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }

        /// A one in each lane (the lowest bit of a byte) of `word` that is a continuation byte.
        @inline(__always) private static func continuations(_ word: UInt64) -> UInt64 {
            (word & ~(word << 1) & 0x8080_8080_8080_8080) >> 7
        }

        /// Not zero when one of the word's eight bytes is "\n" (a zero byte of `word ^ 0x0A…`; the test has
        /// no false alarm when no byte is zero).
        @inline(__always) private static func newlines(_ word: UInt64) -> UInt64 {
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        }

        /// The sum of the eight bytes of `lanes`, when it is below 256.
        private static func laneSum(_ lanes: UInt64) -> Int { Int((lanes &* 0x0101_0101_0101_0101) >> 56) }

        /// Goes on from `position`, counted elsewhere in the same bytes: the bytes before it are not read. A
        /// position behind this counter's is ignored.
        public mutating func skip(to position: SourcePosition) {
            guard position.offset > next else { return }
            (line, column, next) = (position.line, position.column, position.offset)
        }

        /// Counts the bytes from `next` up to `end` one at a time.
        private mutating func count(_ bytes: UnsafeRawBufferPointer, upTo end: Int) {
            while next < end {
                let byte = bytes[next]
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                next += 1
            }
        }
    }
}
