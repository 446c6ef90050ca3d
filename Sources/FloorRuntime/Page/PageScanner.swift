/// A floor object as found on the page, before any plugin has seen it.
import FloorCore

package struct FloorSpec: Equatable, Sendable {
    /// Position in the page's `floors` array.
    package var index: Int
    /// From `type`, or from `pattern` (an older CMS name) when `type` is absent; nil when neither holds a string.
    package var type: String?
    /// From `id`: a string, or an integer (no fraction, no exponent) kept as its decimal text; nil otherwise.
    package var id: String?
    /// Byte range of the whole floor value (`{...}`, or whatever non-object stood there) in the page data.
    /// The plugin decodes exactly these bytes.
    package var bytes: Range<Int>
    /// Shape problems of this floor, each naming its JSON path ("floors[3].type must be a string, found number").
    /// A floor with problems is still listed, so the host can report it in place and render the rest.
    package var problems: [String]
}

/// The shape of a page: where its floors are, and where the next page is.
package struct PageSpec: Equatable, Sendable {
    package var floors: [FloorSpec]
    /// The next page's location relative to this page's file; nil when `next` is absent or null.
    package var next: String?
    /// The page's `title` (what a preview shows above the floors); nil when absent, null or not a string.
    package var title: String? = nil
    /// Problems of the page object itself that do not make it unusable (a repeated key), each starting
    /// with its JSON path.
    package var problems: [String] = []

    package init(floors: [FloorSpec], next: String?, title: String? = nil, problems: [String] = []) {
        self.floors = floors
        self.next = next
        self.title = title
        self.problems = problems
    }
}

/// Unusable input: not JSON, or not the page shape (not an object, no `floors`, `floors` not an array,
/// `next` neither a string nor null).
package struct PageSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset of the offending byte in the page data; the data's length when the input ended too early.
    package var offset: Int
    /// 1-based; lines end at "\n" (so "\r\n" counts once).
    package var line: Int
    /// 1-based, counted in Unicode scalars from the start of the line (after a skipped BOM on line 1).
    package var column: Int
    package var message: String

    /// "line:column: message", ready to follow a file name.
    package var description: String { "\(line):\(column): \(message)" }

    package init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }
}

/// Reads a page's bytes and returns the page's shape without building a DOM: the whole document is validated
/// as JSON (RFC 8259), but only the strings the host needs are decoded (top-level and floor keys, and the
/// values of `type`, `pattern`, `id` and `next`); everything else is skipped byte by byte. Plugins decode
/// each floor's own bytes later.
///
/// Contract:
/// - Input is UTF-8. A UTF-8 byte order mark at the very start is skipped; offsets still count it.
///   Invalid UTF-8 inside strings is an error (anywhere else, any non-ASCII byte already is one).
/// - Nesting deeper than `maxDepth` arrays/objects (the page object is level 1) is an error, not a crash.
/// - Keys are compared after unescaping (`"t\u0079pe"` is `type`). Duplicate keys: the last one wins, in the
///   page object (`floors`, `next`) and in each floor (`type`, `pattern`, `id`); earlier ones are still validated.
///   Any key repeated in the page object or in a floor object is a problem ("floors[1].title: duplicate key
///   'title'; the last value is used"), as plugins' decoders also use the last value.
/// - A floor without a string `type`/`pattern` or without a string/integer `id` gets a problem, not an error.
/// - Malformed JSON anywhere is reported before a page-shape error, so a shape error means the JSON is valid.
/// - A `\uD800`-style escape that is not half of a surrogate pair is valid JSON; in a decoded string it
///   becomes U+FFFD.
/// - Line and column are computed only when an error is thrown.
/// - Pure function of its input; safe to call from any thread.
package enum PageScanner {
    package static let maxDepth = 512

    /// Throws `PageSyntaxError`. `bytes` is only read during the call.
    package static func scan(_ bytes: UnsafeRawBufferPointer) throws(PageSyntaxError) -> PageSpec {
        guard let start = bytes.baseAddress, bytes.count > 0 else {
            throw PageSyntaxError(offset: 0, line: 1, column: 1, message: "the page is empty")
        }
        var cursor = Cursor(start, count: bytes.count)
        return try cursor.page()
    }

    /// Throws `PageSyntaxError`.
    package static func scan(_ data: [UInt8]) throws(PageSyntaxError) -> PageSpec {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(PageSyntaxError) -> PageSpec in try scan(bytes) }
        }
        return try result.get()
    }
}

extension PageScanner {
    /// What a skipped value was, for messages ("found number").
    fileprivate enum ValueKind: String {
        case object, array, string, number, boolean, null
    }

    /// A string's content bytes (between the quotes), already validated.
    fileprivate struct StringSpan {
        var start: Int
        var end: Int
        /// False when the content has no backslash, so the bytes are the decoded UTF-8 as they stand.
        var escaped: Bool
    }

    /// A floor field the host reads, as last seen in the floor object.
    fileprivate enum Field {
        case absent
        case text(String)
        /// Present but of the wrong kind; the associated text names what was found.
        case misfit(String)
    }

    /// Scanning state over borrowed bytes. Invariants: `pos` is the next unread byte (`count` at the end);
    /// `depth` is the number of arrays/objects currently open. Methods that consume a whole value leave `pos`
    /// just after it, before any whitespace; the structural ones say where they stop.
    fileprivate struct Cursor {
        let raw: UnsafeRawPointer
        let count: Int
        /// Where the JSON text starts: 3 after a BOM, else 0.
        let bodyStart: Int
        var pos: Int
        var depth = 0
        /// Bit `d` is set when open level `d` (1-based) is an object rather than an array.
        var objectLevels = [UInt64](repeating: 0, count: PageScanner.maxDepth / 64 + 1)

        init(_ raw: UnsafeRawPointer, count: Int) {
            self.raw = raw
            self.count = count
            let hasBOM =
                count >= 3 && raw.load(as: UInt8.self) == 0xEF
                && raw.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
                && raw.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
            bodyStart = hasBOM ? 3 : 0
            pos = bodyStart
        }

        @inline(__always) func byte(_ i: Int) -> UInt8 { raw.load(fromByteOffset: i, as: UInt8.self) }

        @inline(__always) func at(_ c: UInt8) -> Bool { pos < count && byte(pos) == c }

        // MARK: The page

        mutating func page() throws(PageSyntaxError) -> PageSpec {
            skipWhitespace()
            guard pos < count else { throw failure("the page is empty", at: pos) }
            let start = pos
            guard byte(pos) == Ascii.openBrace else {
                let kind = try skipValue()
                try expectEnd()
                throw failure("the page must be a JSON object, found \(kind.rawValue)", at: start)
            }
            var floors: [FloorSpec]?
            var floorsMisfit: (offset: Int, kind: ValueKind)?
            var next: String?
            var nextMisfit: (offset: Int, kind: ValueKind)?
            var title: String?
            var keys = Set<String>()
            var problems: [String] = []
            if try openObject() {
                repeat {
                    let key = try key()
                    if let repeated = repeated(key, in: &keys) {
                        problems.append("\(repeated): duplicate key '\(repeated)' in the page; the last value is used")
                    }
                    let valueStart = pos
                    if matches(key, "floors") {
                        if at(Ascii.openBracket) {
                            floors = try floorList()
                            floorsMisfit = nil
                        } else {
                            floorsMisfit = (valueStart, try skipValue())
                            floors = nil
                        }
                    } else if matches(key, "next") {
                        if at(Ascii.quote) {
                            next = text(try string())
                            nextMisfit = nil
                        } else {
                            let kind = try skipValue()
                            next = nil
                            nextMisfit = kind == .null ? nil : (valueStart, kind)
                        }
                    } else if matches(key, "title") {
                        if at(Ascii.quote) {
                            title = text(try string())
                        } else {
                            let kind = try skipValue()
                            title = nil
                            if kind != .null {
                                problems.append(
                                    "title: must be a string, found \(kind.rawValue); the page is shown without a title"
                                )
                            }
                        }
                    } else {
                        _ = try skipValue()
                        if !matches(key, "$schema") { problems.append(PageFields.unknown(text(key))) }
                    }
                } while try nextMember()
            }
            try expectEnd()
            if let misfit = floorsMisfit {
                throw failure("'floors' must be an array, found \(misfit.kind.rawValue)", at: misfit.offset)
            }
            guard let floors else { throw failure("the page has no 'floors' array", at: start) }
            if let misfit = nextMisfit {
                throw failure("'next' must be a string or null, found \(misfit.kind.rawValue)", at: misfit.offset)
            }
            return PageSpec(floors: floors, next: next, title: title, problems: problems)
        }

        /// Precondition: at `[`.
        mutating func floorList() throws(PageSyntaxError) -> [FloorSpec] {
            var floors: [FloorSpec] = []
            if try openArray() {
                repeat {
                    floors.append(try floor(index: floors.count))
                } while try nextElement()
            }
            return floors
        }

        mutating func floor(index: Int) throws(PageSyntaxError) -> FloorSpec {
            let start = pos
            guard at(Ascii.openBrace) else {
                let kind = try skipValue()
                return FloorSpec(
                    index: index, type: nil, id: nil, bytes: start..<pos,
                    problems: ["floors[\(index)] must be an object, found \(kind.rawValue)"])
            }
            var type = Field.absent
            var pattern = Field.absent
            var id = Field.absent
            var keys = Set<String>()
            var problems: [String] = []
            if try openObject() {
                repeat {
                    let key = try key()
                    if let repeated = repeated(key, in: &keys) {
                        problems.append(
                            "floors[\(index)].\(repeated): duplicate key '\(repeated)'; the last value is used")
                    }
                    if matches(key, "type") {
                        type = try stringField()
                    } else if matches(key, "pattern") {
                        pattern = try stringField()
                    } else if matches(key, "id") {
                        id = try idField()
                    } else {
                        _ = try skipValue()
                    }
                } while try nextMember()
            }
            var typeName: String?
            switch (type, pattern) {
            case (.text(let name), _), (.absent, .text(let name)):
                typeName = name
            case (.misfit(let found), _):
                problems.append("floors[\(index)].type must be a string, found \(found)")
            case (.absent, .misfit(let found)):
                problems.append("floors[\(index)].pattern must be a string, found \(found)")
            case (.absent, .absent):
                problems.append("floors[\(index)] has no 'type'")
            }
            var floorID: String?
            switch id {
            case .text(let text):
                floorID = text
            case .misfit(let found):
                problems.append("floors[\(index)].id must be a string or an integer, found \(found)")
            case .absent:
                break  // the decoder names the floor by its path and says so
            }
            return FloorSpec(index: index, type: typeName, id: floorID, bytes: start..<pos, problems: problems)
        }

        mutating func stringField() throws(PageSyntaxError) -> Field {
            if at(Ascii.quote) { return .text(text(try string())) }
            return .misfit(try skipValue().rawValue)
        }

        mutating func idField() throws(PageSyntaxError) -> Field {
            if at(Ascii.quote) { return .text(text(try string())) }
            if pos < count, byte(pos) == Ascii.minus || Ascii.isDigit(byte(pos)) {
                let start = pos
                guard try number() else { return .misfit("a non-integer number") }
                return .text(
                    String(
                        decoding: UnsafeRawBufferPointer(start: raw + start, count: pos - start),
                        as: UTF8.self))
            }
            return .misfit(try skipValue().rawValue)
        }

        // MARK: Structure

        /// Consumes `{` and following whitespace. Returns false when the object closed at once (`{}`), else
        /// leaves `pos` at the first key's quote.
        mutating func openObject() throws(PageSyntaxError) -> Bool {
            try enter(object: true)
            skipWhitespace()
            if at(Ascii.closeBrace) {
                pos += 1
                depth -= 1
                return false
            }
            guard at(Ascii.quote) else { throw unexpected("expected a string key or '}'") }
            return true
        }

        /// After a member's value: consumes `,` and the whitespace up to the next key's quote (true), or the
        /// closing `}` (false).
        mutating func nextMember() throws(PageSyntaxError) -> Bool {
            skipWhitespace()
            if at(Ascii.comma) {
                pos += 1
                skipWhitespace()
                if at(Ascii.closeBrace) { throw trailingComma(before: "}") }
                guard at(Ascii.quote) else { throw unexpected("expected a string key after ','") }
                return true
            }
            guard at(Ascii.closeBrace) else { throw unexpected("expected ',' or '}' after object member") }
            pos += 1
            depth -= 1
            return false
        }

        /// Consumes `[` and following whitespace. Returns false when the array closed at once (`[]`).
        mutating func openArray() throws(PageSyntaxError) -> Bool {
            try enter(object: false)
            skipWhitespace()
            if at(Ascii.closeBracket) {
                pos += 1
                depth -= 1
                return false
            }
            return true
        }

        /// After an element: consumes `,` and following whitespace (true), or the closing `]` (false).
        mutating func nextElement() throws(PageSyntaxError) -> Bool {
            skipWhitespace()
            if at(Ascii.comma) {
                pos += 1
                skipWhitespace()
                if at(Ascii.closeBracket) { throw trailingComma(before: "]") }
                return true
            }
            guard at(Ascii.closeBracket) else { throw unexpected("expected ',' or ']' after array element") }
            pos += 1
            depth -= 1
            return false
        }

        /// Consumes an opening bracket and records whether level `depth` is an object.
        mutating func enter(object: Bool) throws(PageSyntaxError) {
            guard depth < PageScanner.maxDepth else {
                throw failure("nesting deeper than \(PageScanner.maxDepth) levels", at: pos)
            }
            depth += 1
            pos += 1
            let bit: UInt64 = 1 << UInt64(depth & 63)
            if object { objectLevels[depth >> 6] |= bit } else { objectLevels[depth >> 6] &= ~bit }
        }

        /// Precondition: at a key's quote. Consumes the key, `:` and whitespace up to the value.
        mutating func key() throws(PageSyntaxError) -> StringSpan {
            let key = try string()
            skipWhitespace()
            guard at(Ascii.colon) else { throw unexpected("expected ':' after object key") }
            pos += 1
            skipWhitespace()
            return key
        }

        /// Consumes one value of any kind. Iterative: nesting costs no native stack, only a bit per level in
        /// `objectLevels`, so `maxDepth` holds on any thread.
        mutating func skipValue() throws(PageSyntaxError) -> ValueKind {
            let kind: ValueKind
            switch pos < count ? byte(pos) : 0 {
            case Ascii.openBrace: kind = .object
            case Ascii.openBracket: kind = .array
            default: return try skipScalar()
            }
            let outerDepth = depth
            var atValue = try openContainer()
            while depth > outerDepth {
                if !atValue {
                    atValue = try nextInContainer()
                } else if pos < count && (byte(pos) == Ascii.openBrace || byte(pos) == Ascii.openBracket) {
                    atValue = try openContainer()
                } else {
                    _ = try skipScalar()
                    atValue = false
                }
            }
            return kind
        }

        /// Precondition: at `{` or `[`. Returns true when the container stays open with `pos` at its first value
        /// (past the first key in an object); an empty container is consumed whole.
        mutating func openContainer() throws(PageSyntaxError) -> Bool {
            guard byte(pos) == Ascii.openBrace else { return try openArray() }
            guard try openObject() else { return false }
            _ = try key()
            return true
        }

        /// After a value in the innermost container: returns true at the next value (past its key in an object),
        /// false when the container closed.
        mutating func nextInContainer() throws(PageSyntaxError) -> Bool {
            guard objectLevels[depth >> 6] & (1 << UInt64(depth & 63)) != 0 else { return try nextElement() }
            guard try nextMember() else { return false }
            _ = try key()
            return true
        }

        mutating func skipScalar() throws(PageSyntaxError) -> ValueKind {
            guard pos < count else { throw unexpected("expected a value") }
            switch byte(pos) {
            case Ascii.quote:
                _ = try string()
                return .string
            case Ascii.minus, Ascii.zero...Ascii.nine:
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

        mutating func expectEnd() throws(PageSyntaxError) {
            skipWhitespace()
            guard pos == count else { throw failure("unexpected \(found(at: pos)) after the top-level value", at: pos) }
        }

        @inline(__always) mutating func skipWhitespace() {
            while pos < count {
                let b = byte(pos)
                guard b == Ascii.space || b == Ascii.newline || b == Ascii.carriageReturn || b == Ascii.tab else {
                    return
                }
                pos += 1
            }
        }

        // MARK: Scalars

        /// Precondition: at the opening quote. Validates escapes, control characters and UTF-8.
        mutating func string() throws(PageSyntaxError) -> StringSpan {
            let open = pos
            var i = pos + 1
            var escaped = false
            while true {
                // Most bytes are printable ASCII other than '"' and '\': one range test and two compares each.
                while i < count {
                    let b = byte(i)
                    if b &- 0x20 >= 0x60 || b == Ascii.quote || b == Ascii.backslash { break }
                    i += 1
                }
                guard i < count else { throw failure("unterminated string", at: open) }
                let b = byte(i)
                if b == Ascii.quote {
                    pos = i + 1
                    return StringSpan(start: open + 1, end: i, escaped: escaped)
                } else if b == Ascii.backslash {
                    escaped = true
                    i = try escape(at: i, stringStart: open)
                } else if b >= 0x80 {
                    i = try utf8Sequence(at: i)
                } else if b == Ascii.newline || b == Ascii.carriageReturn {
                    throw failure("line break inside a string (missing closing '\"'?)", at: i)
                } else {
                    throw failure("control character \(Self.scalarName(UInt32(b))) must be escaped in strings", at: i)
                }
            }
        }

        /// Precondition: byte `i` is a backslash inside a string. Returns the index after the escape.
        func escape(at i: Int, stringStart: Int) throws(PageSyntaxError) -> Int {
            guard i + 1 < count else { throw failure("unterminated string", at: stringStart) }
            switch byte(i + 1) {
            case Ascii.quote, Ascii.backslash, Ascii.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return i + 2
            case UInt8(ascii: "u"):
                for k in (i + 2)..<(i + 6) {
                    guard k < count else { throw failure("unterminated string", at: stringStart) }
                    guard Ascii.hexValue(byte(k)) != nil else {
                        throw failure("invalid \\u escape: expected 4 hex digits", at: i)
                    }
                }
                return i + 6
            case let c where c > 0x20 && c < 0x7F:
                throw failure("invalid escape '\\\(Character(Unicode.Scalar(c)))' in string", at: i)
            default:
                throw failure("invalid escape: '\\' followed by \(found(at: i + 1)) in string", at: i)
            }
        }

        /// Precondition: byte `i` is ≥ 0x80 inside a string. Accepts exactly well-formed UTF-8 (no overlongs,
        /// no encoded surrogates, nothing above U+10FFFF). Returns the index after the sequence.
        func utf8Sequence(at i: Int) throws(PageSyntaxError) -> Int {
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
        mutating func number() throws(PageSyntaxError) -> Bool {
            if byte(pos) == Ascii.minus {
                pos += 1
                guard pos < count, Ascii.isDigit(byte(pos)) else { throw unexpected("expected a digit after '-'") }
            }
            if byte(pos) == Ascii.zero {
                pos += 1
                if pos < count, Ascii.isDigit(byte(pos)) {
                    throw failure("leading zeros are not allowed in numbers", at: pos)
                }
            } else {
                skipDigits()
            }
            var isInteger = true
            if at(Ascii.dot) {
                pos += 1
                guard pos < count, Ascii.isDigit(byte(pos)) else { throw unexpected("expected a digit after '.'") }
                skipDigits()
                isInteger = false
            }
            if pos < count, byte(pos) | 0x20 == UInt8(ascii: "e") {
                pos += 1
                if pos < count, byte(pos) == Ascii.plus || byte(pos) == Ascii.minus { pos += 1 }
                guard pos < count, Ascii.isDigit(byte(pos)) else {
                    throw unexpected("expected a digit in the exponent")
                }
                skipDigits()
                isInteger = false
            }
            return isInteger
        }

        @inline(__always) mutating func skipDigits() {
            while pos < count && Ascii.isDigit(byte(pos)) { pos += 1 }
        }

        /// Precondition: at the literal's first byte.
        mutating func literal(_ word: StaticString) throws(PageSyntaxError) {
            let length = word.utf8CodeUnitCount
            for k in 0..<length where pos + k >= count || byte(pos + k) != word.utf8Start[k] {
                throw failure("invalid literal, expected '\(word)'", at: pos + k)
            }
            pos += length
        }

        // MARK: Decoding the few strings the host reads

        /// The key's name when `keys` (the keys seen so far in one object) already holds it; else adds it.
        /// Keys are decoded for this: an object's keys are few next to the values the scanner skips.
        func repeated(_ key: StringSpan, in keys: inout Set<String>) -> String? {
            let name = text(key)
            return keys.insert(name).inserted ? nil : name
        }

        func matches(_ span: StringSpan, _ name: StaticString) -> Bool {
            if span.escaped { return text(span) == name.description }
            let length = span.end - span.start
            guard length == name.utf8CodeUnitCount else { return false }
            for k in 0..<length where byte(span.start + k) != name.utf8Start[k] { return false }
            return true
        }

        func text(_ span: StringSpan) -> String {
            let content = UnsafeRawBufferPointer(start: raw + span.start, count: span.end - span.start)
            return span.escaped ? JSONStringContent.decoded(content) : String(decoding: content, as: UTF8.self)
        }

        // MARK: Errors (the only place line and column are computed)

        /// At a closing bracket right after a ',' (allowed by JavaScript, not by JSON): the position stays
        /// the bracket's, where the parse stopped, and the message names the comma to delete.
        func trailingComma(before closing: String) -> PageSyntaxError {
            failure(
                "trailing comma before '\(closing)': JSON allows no ',' after the last \(closing == "]" ? "element" : "member"); delete that ','",
                at: pos)
        }

        func unexpected(_ expectation: String) -> PageSyntaxError {
            failure("\(expectation), found \(found(at: pos))", at: pos)
        }

        func failure(_ message: String, at offset: Int) -> PageSyntaxError {
            var line = 1
            var lineStart = bodyStart
            for i in bodyStart..<max(bodyStart, offset) where byte(i) == Ascii.newline {
                line += 1
                lineStart = i + 1
            }
            var column = 1
            for i in lineStart..<max(lineStart, offset) where byte(i) & 0xC0 != 0x80 { column += 1 }
            return PageSyntaxError(offset: offset, line: line, column: column, message: message)
        }

        /// Names the byte at `i` for a message: "'x'", "'“' (U+201C)", "U+0001", "byte 0xFF", "end of input".
        func found(at i: Int) -> String {
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

        static func scalarName(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    /// The ASCII bytes of JSON's grammar.
    fileprivate enum Ascii {
        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
        static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
        static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), dot = UInt8(ascii: ".")
        static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
        static let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        static let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r"), tab = UInt8(ascii: "\t")

        @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }

        static func hexValue(_ b: UInt8) -> UInt8? {
            switch b {
            case zero...nine: return b - zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
