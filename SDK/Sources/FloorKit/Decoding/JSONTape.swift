/// A floor object's JSON parsed in one pass into a flat tape of nodes, in document order, pointing into
/// the original bytes. No value is copied or converted until a decoder asks for it. An object's node is
/// followed by its members as key node, value subtree, key node, value subtree...; an array's by its
/// elements. `next` skips a whole subtree.
///
/// Validating: anything RFC 8259 rejects throws (with its byte offset), so the decoder is safe on the
/// garbage conformance feeds it. Nesting is limited to `maxDepth`. The bytes must outlive the tape.
/// Imports nothing and uses no existential or reflection: it compiles under Embedded Swift with the rest
/// of Decoding/ (Scripts/wasm-decode), for floors compiled to WebAssembly from the same source.
struct JSONTape {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null

        /// What a decode error says it found ("expected a string, found number").
        var found: StaticString {
            switch self {
            case .object: "a dictionary"
            case .array: "an array"
            case .string: "a string"
            case .number: "number"
            case .true, .false: "bool"
            case .null: "null"
            }
        }
    }

    struct Node {
        var kind: Kind
        /// A string containing a backslash escape (its bytes need unescaping).
        var escaped = false
        /// A string whose written bytes are all ASCII, so valid UTF-8 as written (Fields.text keeps them
        /// without validating them again).
        var ascii = false
        /// An object two of whose keys may be the same: two with the same length and first byte, or an
        /// escaped one. When false its keys are distinct, so a look-up may stop at the first match
        /// (Fields.member). Fits the node's padding: a node is still 20 bytes.
        var keysMayRepeat = false
        /// Strings: the content between the quotes; numbers: the literal; containers: unused.
        var start: Int32
        var end: Int32
        /// Containers: members (objects) or elements (arrays).
        var count: Int32 = 0
        /// The index of the first node after this subtree.
        var next: Int32 = 0
    }

    struct SyntaxError: Error {
        let offset: Int
        let message: String
    }

    static let maxDepth = 256

    let bytes: UnsafeRawBufferPointer
    /// Valid while this tape (a copy of it) lives: a reader keeps the tape (DecodeContext, TapeDecoder's
    /// box) or extends its lifetime around the read.
    let nodes: UnsafeBufferPointer<Node>
    private let storage: NodeStorage

    init(_ bytes: UnsafeRawBufferPointer) throws(SyntaxError) {
        self.bytes = bytes
        // Node offsets are 32-bit: a larger floor object is refused, not a trap.
        guard bytes.count < Int(Int32.max) else {
            throw SyntaxError(offset: 0, message: "larger than \(Int32.max) bytes")
        }
        var parser = Parser(bytes)
        var position = 0
        do throws(SyntaxError) {
            parser.skipSpace(&position)
            try parser.value(&position, depth: 0)
            parser.skipSpace(&position)
            guard position == bytes.count else {
                throw SyntaxError(offset: position, message: "unexpected text after the JSON value")
            }
        } catch {
            parser.nodes.release()
            throw error
        }
        storage = NodeStorage(parser.nodes)
        nodes = storage.nodes
    }

    /// The nodes as they are parsed, in memory the parse grows itself (doubling): an Array's append paid a
    /// uniqueness and a capacity check per node (callgrind). Its blocks are NodeBlocks': a block a parse
    /// before gave back is reused.
    private struct NodeBuffer {
        private var base: UnsafeMutablePointer<Node>
        private(set) var capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            base = NodeBlocks.shared.allocate(capacity: max(capacity, 16))
            self.capacity = NodeBlocks.capacity(of: base)
        }

        @inline(__always)
        mutating func append(_ node: Node) {
            if count == capacity {
                let grown = NodeBlocks.allocateNew(capacity: capacity * 2)
                grown.initialize(from: base, count: count)
                NodeBlocks.free(base)
                base = grown
                capacity *= 2
            }
            (base + count).initialize(to: node)
            count &+= 1
        }

        /// The node at `index`, written in place (a field at a time, not the whole node).
        func at(_ index: Int) -> UnsafeMutablePointer<Node> { base + index }

        var written: UnsafeBufferPointer<Node> { UnsafeBufferPointer(start: base, count: count) }

        /// Done with: the block goes back to NodeBlocks.
        func release() { NodeBlocks.shared.give(base) }
    }

    /// A parse's nodes, given back with the last tape that holds them.
    private final class NodeStorage {
        let nodes: UnsafeBufferPointer<Node>

        init(_ buffer: NodeBuffer) { nodes = buffer.written }

        deinit { NodeBlocks.shared.give(UnsafeMutablePointer(mutating: nodes.baseAddress!)) }
    }

    /// The one pass over the bytes that writes the nodes. Offsets and node counts are below the byte
    /// count, itself below 2^31 (init), so they are converted and advanced in wrapping arithmetic: a
    /// checked `Int32(i)` or `i += 1` is a compare and a branch, several per node (callgrind).
    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var nodes: NodeBuffer

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            nodes = NodeBuffer(capacity: bytes.count / 6)
        }

        private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        func skipSpace(_ i: inout Int) {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i &+= 1
            }
        }

        mutating func value(_ i: inout Int, depth: Int) throws(SyntaxError) {
            guard depth < JSONTape.maxDepth else {
                throw SyntaxError(offset: i, message: "nested deeper than \(JSONTape.maxDepth) levels")
            }
            switch byte(i) {
            case UInt8(ascii: "{"): try container(&i, depth: depth, object: true)
            case UInt8(ascii: "["): try container(&i, depth: depth, object: false)
            case UInt8(ascii: "\""): try string(&i)
            case UInt8(ascii: "t"): try literal(&i, "true", .true)
            case UInt8(ascii: "f"): try literal(&i, "false", .false)
            case UInt8(ascii: "n"): try literal(&i, "null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(&i)
            default:
                throw SyntaxError(
                    offset: i, message: i < bytes.count ? "expected a JSON value" : "unexpected end of JSON")
            }
        }

        private mutating func container(_ i: inout Int, depth: Int, object: Bool) throws(SyntaxError) {
            let me = nodes.count
            let at = Int32(truncatingIfNeeded: i)
            nodes.append(Node(kind: object ? .object : .array, start: at, end: at))
            let close = UInt8(ascii: object ? "}" : "]")
            i &+= 1
            skipSpace(&i)
            var count: Int32 = 0
            // A bit for each key's length and first byte: a bit already set, or an escaped key, marks the
            // object's keys as possibly repeated (a false alarm only costs its look-ups their shortcut).
            var keyBits: UInt64 = 0
            var keysMayRepeat = false
            if byte(i) == close {
                i &+= 1
            } else {
                while true {
                    if object {
                        guard byte(i) == UInt8(ascii: "\"") else {
                            throw SyntaxError(offset: i, message: "expected a string key")
                        }
                        let open = i
                        try string(&i)
                        // The key's length and first byte (its closing quote when empty).
                        let hash = UInt64(truncatingIfNeeded: i &- open) &* 13 &+ UInt64(bytes[open &+ 1])
                        let bit: UInt64 = 1 &<< (hash & 63)
                        if keyBits & bit != 0 || nodes.at(nodes.count &- 1).pointee.escaped { keysMayRepeat = true }
                        keyBits |= bit
                        // Compact JSON has no space around the colon: looked for only where the byte is not it.
                        if byte(i) != UInt8(ascii: ":") {
                            skipSpace(&i)
                            guard byte(i) == UInt8(ascii: ":") else {
                                throw SyntaxError(offset: i, message: "expected ':' after a key")
                            }
                        }
                        i &+= 1
                        if byte(i) <= 0x20 { skipSpace(&i) }
                    }
                    // A string, the commonest member, parsed here rather than through `value` (a call and its
                    // frame a member); at the depth `value` would check it at.
                    if byte(i) == UInt8(ascii: "\"") {
                        guard depth &+ 1 < JSONTape.maxDepth else {
                            throw SyntaxError(offset: i, message: "nested deeper than \(JSONTape.maxDepth) levels")
                        }
                        try string(&i)
                    } else {
                        try value(&i, depth: depth &+ 1)
                    }
                    count &+= 1
                    var next = byte(i)
                    if next <= 0x20 {
                        skipSpace(&i)
                        next = byte(i)
                    }
                    if next == UInt8(ascii: ",") {
                        i &+= 1
                        if byte(i) <= 0x20 { skipSpace(&i) }
                    } else if next == close {
                        i &+= 1
                        break
                    } else {
                        throw SyntaxError(offset: i, message: object ? "expected ',' or '}'" : "expected ',' or ']'")
                    }
                }
            }
            let node = nodes.at(me)
            node.pointee.count = count
            node.pointee.keysMayRepeat = keysMayRepeat
            node.pointee.end = Int32(truncatingIfNeeded: i)
            node.pointee.next = Int32(truncatingIfNeeded: nodes.count)
        }

        /// A string from its opening quote at `i`, to after its closing one. Most strings have no escape: the
        /// first quote, backslash or control character after the opening quote is the closing quote, and that
        /// is all this does inline (at the keys' and values' places in `container`); the rest is `escapedString`.
        @inline(__always)
        private mutating func string(_ i: inout Int) throws(SyntaxError) {
            let open = i
            var high: UInt64 = 0
            let end = Self.plainEnd(bytes, from: open &+ 1, high: &high)
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
                return try escapedString(&i, open: open, from: end, high: high)
            }
            appendString(open: open, end: end, escaped: false, high: high)
            i = end &+ 1
        }

        /// The node of a string from its opening quote at `open` to its closing one at `end`; `high`, its bytes
        /// ORed together (`plainEnd`), tells whether they are all ASCII.
        @inline(__always)
        private mutating func appendString(open: Int, end: Int, escaped: Bool, high: UInt64) {
            nodes.append(
                Node(
                    kind: .string, escaped: escaped, ascii: high & 0x8080_8080_8080_8080 == 0,
                    start: Int32(truncatingIfNeeded: open &+ 1), end: Int32(truncatingIfNeeded: end),
                    next: Int32(truncatingIfNeeded: nodes.count &+ 1)))
        }

        /// The rest of a string whose first byte after `open` that is not plain is at `from` (not its closing
        /// quote): escapes checked, and the errors a string can have.
        @inline(never)
        private mutating func escapedString(_ i: inout Int, open: Int, from: Int, high: UInt64) throws(SyntaxError) {
            i = from
            var escaped = false
            var high = high
            while true {
                guard i < bytes.count else { throw SyntaxError(offset: open, message: "unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { break }
                if b < 0x20 { throw SyntaxError(offset: i, message: "control character in a string") }
                if b == UInt8(ascii: "\\") {
                    escaped = true
                    i &+= 1
                    switch byte(i) {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        for k in 1...4 where !JSONTape.isHex(byte(i + k)) {
                            throw SyntaxError(offset: i + k, message: "bad \\u escape")
                        }
                        i &+= 4
                    default:
                        throw SyntaxError(offset: i, message: "bad escape")
                    }
                }
                i &+= 1
                i = Self.plainEnd(bytes, from: i, high: &high)
            }
            appendString(open: open, end: i, escaped: escaped, high: high)
            i &+= 1
        }

        /// The first byte from `i` that is a quote, a backslash or a control character (the count when none):
        /// eight bytes at a time (the "has a zero byte" test, whose lowest flagged byte is always a true one).
        /// The bytes before it are ORed into `high`, whose top bits then tell whether any was not ASCII.
        private static func plainEnd(_ bytes: UnsafeRawBufferPointer, from i: Int, high: inout UInt64) -> Int {
            let ones: UInt64 = 0x0101_0101_0101_0101
            var i = i
            while i &+ 8 <= bytes.count {
                let x = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let quote = x ^ (ones &* 0x22)  // a zero byte where x has '"'
                let backslash = x ^ (ones &* 0x5C)  // a zero byte where x has '\\'
                let quotes = (quote &- ones) & ~quote
                let backslashes = (backslash &- ones) & ~backslash
                let controls = (x &- ones &* 0x20) & ~x
                let found = (quotes | backslashes | controls) & (ones &* 0x80)
                if found != 0 {
                    // The bytes below the lowest flagged one; the rest of the word is after the string.
                    high |= x & ((found & (0 &- found)) &- 1)
                    return i + found.trailingZeroBitCount >> 3
                }
                high |= x
                i &+= 8
            }
            while i < bytes.count, bytes[i] >= 0x20, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                high |= UInt64(bytes[i])
                i &+= 1
            }
            return i
        }

        private mutating func number(_ i: inout Int) throws(SyntaxError) {
            let start = i
            func digits(_ i: inout Int) -> Int {
                let from = i
                while (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte(i)) { i &+= 1 }
                return i - from
            }
            if byte(i) == UInt8(ascii: "-") { i &+= 1 }
            if byte(i) == UInt8(ascii: "0") {
                i &+= 1
            } else if digits(&i) == 0 {
                throw SyntaxError(offset: i, message: "bad number")
            }
            if byte(i) == UInt8(ascii: ".") {
                i &+= 1
                guard digits(&i) > 0 else { throw SyntaxError(offset: i, message: "bad number") }
            }
            if byte(i) == UInt8(ascii: "e") || byte(i) == UInt8(ascii: "E") {
                i &+= 1
                if byte(i) == UInt8(ascii: "+") || byte(i) == UInt8(ascii: "-") { i &+= 1 }
                guard digits(&i) > 0 else { throw SyntaxError(offset: i, message: "bad number") }
            }
            nodes.append(
                Node(
                    kind: .number, start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: i),
                    next: Int32(truncatingIfNeeded: nodes.count &+ 1)))
        }

        private mutating func literal(_ i: inout Int, _ word: StaticString, _ kind: Kind) throws(SyntaxError) {
            let length = word.utf8CodeUnitCount
            guard i + length <= bytes.count,
                JSONTape.same(bytes.baseAddress! + i, UnsafeRawPointer(word.utf8Start), length)
            else {
                throw SyntaxError(offset: i, message: "expected a JSON value")
            }
            nodes.append(
                Node(
                    kind: kind, start: Int32(truncatingIfNeeded: i), end: Int32(truncatingIfNeeded: i &+ length),
                    next: Int32(truncatingIfNeeded: nodes.count &+ 1)))
            i &+= length
        }
    }

    /// Whether `count` bytes at `a` and `b` are equal (memcmp, without libc).
    static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var i = 0
        while i < count {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
    }

    // MARK: Reading values

    /// The bytes of a string or number node.
    func slice(_ node: Node) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
    }

    /// A string node's value, unescaped. A plain ASCII one (most ids and names of events) is copied
    /// straight into the String's storage: `String(decoding:as:)` looked for invalid UTF-8 the tape has
    /// already ruled out, about 70 instructions more a string (callgrind).
    func string(_ node: Node) -> String {
        let raw = slice(node)
        if node.ascii && !node.escaped {
            return String(unsafeUninitializedCapacity: raw.count) { out in
                guard let from = raw.baseAddress, let to = out.baseAddress else { return 0 }
                UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: raw.count)
                return raw.count
            }
        }
        guard node.escaped else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) -> UInt32 {
            (at..<(at + 4)).reduce(UInt32(0)) { value, k in
                let b = raw[k]
                let digit = b <= UInt8(ascii: "9") ? b - UInt8(ascii: "0") : (b | 0x20) - UInt8(ascii: "a") + 10
                return value << 4 | UInt32(digit)
            }
        }
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(i)
                i += 4
                // A surrogate pair is two escapes; a lone surrogate becomes U+FFFD.
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"),
                    raw[i + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: out.append(e)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a string node equals `key` (compared as UTF-8 bytes).
    func string(_ node: Node, equals key: String) -> Bool {
        if node.escaped { return string(node) == key }
        var key = key
        let raw = slice(node)
        return key.withUTF8 { k in
            k.count == raw.count && (k.isEmpty || Self.same(k.baseAddress!, raw.baseAddress!, k.count))
        }
    }

    /// Whether a string node equals `key`, a declared field name.
    func string(_ node: Node, equals key: StaticString) -> Bool {
        let count = key.utf8CodeUnitCount
        if node.escaped {
            return string(node).utf8.elementsEqual(UnsafeBufferPointer(start: key.utf8Start, count: count))
        }
        return Int(node.end - node.start) == count
            && (count == 0 || Self.same(bytes.baseAddress! + Int(node.start), UnsafeRawPointer(key.utf8Start), count))
    }
}
