/// A byte-level reader of JSON text (RFC 8259) over borrowed bytes: the one loop that the page scanner, the
/// floor signature and the schema validator all read JSON with. It validates as it goes (the grammar,
/// escapes, control characters, UTF-8 in strings, nesting up to `maxDepth`) and never builds a value: callers
/// step through containers and read the scalars they want, and a string costs no copy until its text is asked for.
///
/// Contract:
/// - Invariants: `pos` is the next unread byte (`count` at the end); `depth` is the number of arrays/objects
///   currently open. Methods that consume a whole value leave `pos` just after it, before any whitespace; the
///   structural ones say where they stop.
/// - Errors are `JSONSyntaxError`s with the existing page-scanner messages; line and column are computed
///   only when an error is made (`failure`), counted from `bodyStart` (after a BOM).
/// - Nothing is allocated while reading (`skipValue` keeps the kinds of the levels it opens in bits on the
///   stack). The cursor is five words and holds no reference, so passing it costs no reference counting.
/// - The hot methods are `@inlinable`, so that other modules' loops over a cursor are compiled as one.
package struct JSONCursor {
    /// Deepest nesting of arrays/objects accepted (the outermost value is level 1).
    package static let maxDepth = 512

    package let raw: UnsafeRawPointer
    package let count: Int
    /// Where the JSON text starts: 3 after a UTF-8 byte order mark (when BOMs are skipped), else 0.
    package let bodyStart: Int
    package var pos: Int
    package var depth = 0

    /// `skippingBOM`: a page starts after a UTF-8 byte order mark; offsets still count it.
    package init(_ raw: UnsafeRawPointer, count: Int, skippingBOM: Bool = true) {
        self.raw = raw
        self.count = count
        let hasBOM =
            skippingBOM && count >= 3 && raw.load(as: UInt8.self) == 0xEF
            && raw.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
            && raw.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
        bodyStart = hasBOM ? 3 : 0
        pos = bodyStart
    }

    @inlinable @inline(__always) package func byte(_ i: Int) -> UInt8 { raw.load(fromByteOffset: i, as: UInt8.self) }

    @inlinable @inline(__always) package func at(_ c: UInt8) -> Bool { pos < count && byte(pos) == c }

    /// The bytes from `start` to `end`.
    @inlinable package func bytes(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: raw + start, count: end - start)
    }

    // MARK: Structure

    /// Consumes `{` and following whitespace. Returns false when the object closed at once (`{}`), else
    /// leaves `pos` at the first key's quote.
    @inlinable package mutating func openObject() throws(JSONSyntaxError) -> Bool {
        try enter()
        skipWhitespace()
        if at(JSONByte.closeBrace) {
            pos += 1
            depth -= 1
            return false
        }
        guard at(JSONByte.quote) else { throw unexpected("expected a string key or '}'") }
        return true
    }

    /// After a member's value: consumes `,` and the whitespace up to the next key's quote (true), or the
    /// closing `}` (false).
    @inlinable package mutating func nextMember() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if at(JSONByte.comma) {
            pos += 1
            skipWhitespace()
            if at(JSONByte.closeBrace) { throw trailingComma(before: "}") }
            guard at(JSONByte.quote) else { throw unexpected("expected a string key after ','") }
            return true
        }
        guard at(JSONByte.closeBrace) else { throw unexpected("expected ',' or '}' after object member") }
        pos += 1
        depth -= 1
        return false
    }

    /// Consumes `[` and following whitespace. Returns false when the array closed at once (`[]`).
    @inlinable package mutating func openArray() throws(JSONSyntaxError) -> Bool {
        try enter()
        skipWhitespace()
        if at(JSONByte.closeBracket) {
            pos += 1
            depth -= 1
            return false
        }
        return true
    }

    /// After an element: consumes `,` and following whitespace (true), or the closing `]` (false).
    @inlinable package mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if at(JSONByte.comma) {
            pos += 1
            skipWhitespace()
            if at(JSONByte.closeBracket) { throw trailingComma(before: "]") }
            return true
        }
        guard at(JSONByte.closeBracket) else { throw unexpected("expected ',' or ']' after array element") }
        pos += 1
        depth -= 1
        return false
    }

    /// Consumes an opening bracket: one level deeper.
    @inlinable package mutating func enter() throws(JSONSyntaxError) {
        guard depth < JSONCursor.maxDepth else { throw tooDeep() }
        depth += 1
        pos += 1
    }

    /// Which of the levels `skipValue` opened are objects: bit `d` for level `d` (1-based), 9 words for 512
    /// levels, on the caller's stack.
    @usableFromInline struct OpenLevels {
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0
        )

        @inlinable init() {}

        @inlinable mutating func set(_ level: Int, object: Bool) {
            let bit: UInt64 = 1 << UInt64(level & 63)
            let offset = (level >> 6) * 8
            withUnsafeMutableBytes(of: &words) { words in
                let old = words.load(fromByteOffset: offset, as: UInt64.self)
                words.storeBytes(of: object ? old | bit : old & ~bit, toByteOffset: offset, as: UInt64.self)
            }
        }

        @inlinable func isObject(_ level: Int) -> Bool {
            withUnsafeBytes(of: words) { $0.load(fromByteOffset: (level >> 6) * 8, as: UInt64.self) }
                & (1 << UInt64(level & 63)) != 0
        }
    }

    /// Precondition: at a key's quote. Consumes the key, `:` and whitespace up to the value.
    @inlinable package mutating func key() throws(JSONSyntaxError) -> JSONStringSpan {
        let key = try string()
        skipWhitespace()
        guard at(JSONByte.colon) else { throw unexpected("expected ':' after object key") }
        pos += 1
        skipWhitespace()
        return key
    }

    /// Consumes one value of any kind. Iterative: nesting costs no native stack, only a bit per level in
    /// `OpenLevels`, so `maxDepth` holds on any thread.
    @inlinable package mutating func skipValue() throws(JSONSyntaxError) -> JSONValueKind {
        let kind: JSONValueKind
        switch pos < count ? byte(pos) : 0 {
        case JSONByte.openBrace: kind = .object
        case JSONByte.openBracket: kind = .array
        default: return try skipScalar()
        }
        let outerDepth = depth
        var levels = OpenLevels()
        var atValue = try openContainer(&levels)
        while depth > outerDepth {
            if !atValue {
                atValue = try nextInContainer(levels)
            } else if pos < count && (byte(pos) == JSONByte.openBrace || byte(pos) == JSONByte.openBracket) {
                atValue = try openContainer(&levels)
            } else {
                _ = try skipScalar()
                atValue = false
            }
        }
        return kind
    }

    /// Precondition: at `{` or `[`. Returns true when the container stays open with `pos` at its first value
    /// (past the first key in an object); an empty container is consumed whole.
    @inlinable mutating func openContainer(_ levels: inout OpenLevels) throws(JSONSyntaxError) -> Bool {
        let object = byte(pos) == JSONByte.openBrace
        levels.set(depth + 1, object: object)
        guard object else { return try openArray() }
        guard try openObject() else { return false }
        _ = try key()
        return true
    }

    /// After a value in the innermost container: returns true at the next value (past its key in an object),
    /// false when the container closed.
    @inlinable mutating func nextInContainer(_ levels: OpenLevels) throws(JSONSyntaxError) -> Bool {
        guard levels.isObject(depth) else { return try nextElement() }
        guard try nextMember() else { return false }
        _ = try key()
        return true
    }

    @inlinable package mutating func skipScalar() throws(JSONSyntaxError) -> JSONValueKind {
        guard pos < count else { throw unexpected("expected a value") }
        switch byte(pos) {
        case JSONByte.quote:
            _ = try string()
            return .string
        case JSONByte.minus, JSONByte.zero...JSONByte.nine:
            _ = try number()
            return .number
        case UInt8(ascii: "t"):
            try literal("true")
            return .boolean
        case UInt8(ascii: "f"):
            try literal("false")
            return .boolean
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw unexpected("expected a value")
        }
    }

    /// After the top-level value: only whitespace may follow.
    package mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        guard pos == count else { throw failure("unexpected \(found(at: pos)) after the top-level value", at: pos) }
    }

    @inlinable @inline(__always) package mutating func skipWhitespace() {
        while pos < count {
            guard JSONByte.isWhitespace(byte(pos)) else { return }
            pos += 1
        }
    }

    // MARK: Scalars

    /// Precondition: at the opening quote. Validates escapes, control characters and UTF-8.
    @inlinable package mutating func string() throws(JSONSyntaxError) -> JSONStringSpan {
        let open = pos
        var i = pos + 1
        var escaped = false
        while true {
            // Most bytes are printable ASCII other than '"' and '\': eight at a time, then one by one.
            i = JSONPlainBytes.end(raw, from: i, to: count)
            guard i < count else { throw failure("unterminated string", at: open) }
            let b = byte(i)
            if b == JSONByte.quote {
                pos = i + 1
                return JSONStringSpan(start: open + 1, end: i, escaped: escaped)
            } else if b == JSONByte.backslash {
                escaped = true
                i = try escape(at: i, stringStart: open)
            } else if b >= 0x80 {
                // A run of common sequences at once, then the full check where the run stopped short.
                i = JSONMultibyteRun.end(raw, from: i, to: count)
                if i < count && byte(i) >= 0x80 { i = try utf8Sequence(at: i) }
            } else {
                throw controlCharacter(at: i)
            }
        }
    }

    /// Precondition: byte `i` is a backslash inside a string. Returns the index after the escape.
    @inlinable package func escape(at i: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        guard i + 1 < count else { throw failure("unterminated string", at: stringStart) }
        switch byte(i + 1) {
        case JSONByte.quote, JSONByte.backslash, JSONByte.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            for k in (i + 2)..<(i + 6) {
                guard k < count else { throw failure("unterminated string", at: stringStart) }
                guard JSONByte.isHexDigit(byte(k)) else {
                    throw failure("invalid \\u escape: expected 4 hex digits", at: i)
                }
            }
            return i + 6
        default:
            throw invalidEscape(at: i)
        }
    }

    /// Precondition: byte `i` is ≥ 0x80 inside a string. Accepts exactly well-formed UTF-8 (no overlongs,
    /// no encoded surrogates, nothing above U+10FFFF). Returns the index after the sequence.
    @inlinable package func utf8Sequence(at i: Int) throws(JSONSyntaxError) -> Int {
        let lead = byte(i)
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF  // allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw failure("invalid UTF-8 in string", at: i)
        }
        guard i + length <= count else { throw failure("invalid UTF-8 in string", at: i) }
        let second = byte(i + 1)
        guard second >= low && second <= high else { throw failure("invalid UTF-8 in string", at: i) }
        for k in (i + 2)..<(i + length) where byte(k) & 0xC0 != 0x80 {
            throw failure("invalid UTF-8 in string", at: i)
        }
        return i + length
    }

    /// Precondition: at `-` or a digit. Validates the RFC 8259 number grammar; returns whether the number
    /// is an integer (no fraction, no exponent).
    @inlinable package mutating func number() throws(JSONSyntaxError) -> Bool {
        if byte(pos) == JSONByte.minus {
            pos += 1
            guard pos < count, JSONByte.isDigit(byte(pos)) else { throw unexpected("expected a digit after '-'") }
        }
        if byte(pos) == JSONByte.zero {
            pos += 1
            if pos < count, JSONByte.isDigit(byte(pos)) {
                throw failure("leading zeros are not allowed in numbers", at: pos)
            }
        } else {
            skipDigits()
        }
        var isInteger = true
        if at(JSONByte.dot) {
            pos += 1
            guard pos < count, JSONByte.isDigit(byte(pos)) else { throw unexpected("expected a digit after '.'") }
            skipDigits()
            isInteger = false
        }
        if pos < count, byte(pos) | 0x20 == UInt8(ascii: "e") {
            pos += 1
            if pos < count, byte(pos) == JSONByte.plus || byte(pos) == JSONByte.minus { pos += 1 }
            guard pos < count, JSONByte.isDigit(byte(pos)) else {
                throw unexpected("expected a digit in the exponent")
            }
            skipDigits()
            isInteger = false
        }
        return isInteger
    }

    @inlinable @inline(__always) package mutating func skipDigits() {
        while pos < count && JSONByte.isDigit(byte(pos)) { pos += 1 }
    }

    /// Precondition: at the literal's first byte.
    @inlinable package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        for k in 0..<length where pos + k >= count || byte(pos + k) != word.utf8Start[k] {
            throw failure("invalid literal, expected '\(word)'", at: pos + k)
        }
        pos += length
    }

    // MARK: String contents

    /// Whether the string is `name` (ASCII), escapes decoded.
    @inlinable package func matches(_ span: JSONStringSpan, _ name: StaticString) -> Bool {
        if span.escaped { return text(span) == name.description }
        let length = span.end - span.start
        guard length == name.utf8CodeUnitCount else { return false }
        for k in 0..<length where byte(span.start + k) != name.utf8Start[k] { return false }
        return true
    }

    /// The string's text, escapes resolved (JSONStringContent).
    package func text(_ span: JSONStringSpan) -> String {
        let content = bytes(span.start, span.end)
        return span.escaped ? JSONStringContent.decoded(content) : String(decoding: content, as: UTF8.self)
    }

    // MARK: Errors (the only place line and column are computed)

    package func tooDeep() -> JSONSyntaxError {
        failure("nesting deeper than \(JSONCursor.maxDepth) levels", at: pos)
    }

    package func controlCharacter(at i: Int) -> JSONSyntaxError {
        let b = byte(i)
        if b == JSONByte.newline || b == JSONByte.carriageReturn {
            return failure("line break inside a string (missing closing '\"'?)", at: i)
        }
        return failure("control character \(Self.scalarName(UInt32(b))) must be escaped in strings", at: i)
    }

    package func invalidEscape(at i: Int) -> JSONSyntaxError {
        let c = byte(i + 1)
        if c > 0x20 && c < 0x7F {
            return failure("invalid escape '\\\(Character(Unicode.Scalar(c)))' in string", at: i)
        }
        return failure("invalid escape: '\\' followed by \(found(at: i + 1)) in string", at: i)
    }

    /// At a closing bracket right after a ',' (allowed by JavaScript, not by JSON): the position stays
    /// the bracket's, where the parse stopped, and the message names the comma to delete.
    package func trailingComma(before closing: String) -> JSONSyntaxError {
        let last = closing == "]" ? "element" : "member"
        return failure(
            "trailing comma before '\(closing)': JSON allows no ',' after the last \(last); delete that ','", at: pos)
    }

    package func unexpected(_ expectation: String) -> JSONSyntaxError {
        failure("\(expectation), found \(found(at: pos))", at: pos)
    }

    package func failure(_ message: String, at offset: Int) -> JSONSyntaxError {
        var line = 1
        var lineStart = bodyStart
        for i in bodyStart..<max(bodyStart, offset) where byte(i) == JSONByte.newline {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<max(lineStart, offset) where byte(i) & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(offset: offset, line: line, column: column, message: message)
    }

    /// Names the byte at `i` for a message: "'x'", "'“' (U+201C)", "U+0001", "byte 0xFF", "end of input".
    package func found(at i: Int) -> String {
        guard i < count else { return "end of input" }
        let b = byte(i)
        if b > 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return Self.scalarName(UInt32(b)) }
        var bytes = UnsafeRawBufferPointer(start: raw + i, count: min(4, count - i)).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&bytes) {
            return "'\(Character(scalar))' (\(Self.scalarName(scalar.value)))"
        }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    package static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
