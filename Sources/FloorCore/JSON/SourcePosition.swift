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
        let sorted = Set(offsets.map { max(0, min($0, bytes.count)) }).sorted()
        var line = 1
        var column = 1
        // A byte order mark is not a column (as JSONCursor counts for its syntax errors).
        var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        for offset in sorted {
            while i < offset {
                let byte = bytes[i]
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                i += 1
            }
            result[offset] = SourcePosition(line: line, column: column, offset: offset)
        }
        for offset in offsets where result[offset] == nil {
            result[offset] = result[max(0, min(offset, bytes.count))]
        }
        return result
    }
}
