/// What a declaration says about one value, as its reads state it when run describing
/// (`DeclaredDecoding.declaration(of:)`): the JSON kinds accepted, the rules, and for an object its fields,
/// for an array its element. The SDK turns it into the floor type's JSON Schema (`JSONSchema(declared:)`);
/// the decoder applies the very same rules, from the same reads.
public final class DeclaredNode {
    /// JSON kinds, as bits.
    public struct Kinds: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let object = Kinds(rawValue: 1), array = Kinds(rawValue: 2), string = Kinds(rawValue: 4)
        public static let number = Kinds(rawValue: 8), integer = Kinds(rawValue: 16), boolean = Kinds(rawValue: 32)
        public static let null = Kinds(rawValue: 64)
    }

    public var kinds: Kinds
    public var about: StaticString = ""
    public var minimum: Double?
    public var maximum: Double?
    public var minItems: Int?
    public var text: TextRule = .any
    /// The value used when the field is absent, as JSON text ("4", "false").
    public var defaultValue: String?
    public private(set) var fields: [(name: StaticString, node: DeclaredNode, required: Bool)] = []
    public var element: DeclaredNode?

    init(kinds: Kinds) { self.kinds = kinds }

    /// Notes field `name` (the last read of a name wins) and returns its node.
    @discardableResult
    func field(_ name: StaticString, _ kinds: Kinds, _ about: StaticString, required: Bool) -> DeclaredNode {
        let node = DeclaredNode(kinds: required ? kinds : kinds.union(.null))
        node.about = about
        fields.removeAll { $0.name.text == name.text }
        fields.append((name, node, required))
        return node
    }
}

/// A rule a string must keep beyond being a string. Each is decided by the decoder in Swift and stated in
/// the schema as the keyword that says the same (`JSONSchema(declared:)`); DeclaredSchemaPropertyTests
/// checks the two agree.
public enum TextRule {
    /// Any string.
    case any
    /// At least one character ("minLength": 1).
    case nonEmpty
    /// At least one character that is not a space or a tab (a "pattern" of one such character).
    case notBlank
    /// A number written as text (`NumericText`), for `Fields.amount`.
    case numeric

    @inline(__always)  // `.any` (most strings) is then a compare in the caller, not a call and a copy
    func check(_ text: String) -> StaticString? {
        switch self {
        case .any, .numeric: return nil  // nothing to read (most of a model's strings)
        case .nonEmpty, .notBlank:
            var text = text
            return text.withUTF8 { check(utf8: $0) }
        }
    }

    /// The rule on valid UTF-8. Inlined into a text read: text that starts with an ASCII byte other than
    /// a space or a tab (a URL, most names) is not blank, known without a call.
    @inline(__always)
    func check(utf8 text: UnsafeBufferPointer<UInt8>) -> StaticString? {
        switch self {
        case .any, .numeric: return nil
        case .nonEmpty: return text.isEmpty ? "is empty" : nil
        case .notBlank:
            if let first = text.first, first < 0x80, first != 0x20, first != 0x09 { return nil }
            return Self.blank(text)
        }
    }

    /// "is empty" when every scalar of `text` is a space (`isSpace`), nil at the first that is not.
    private static func blank(_ text: UnsafeBufferPointer<UInt8>) -> StaticString? {
        var i = 0
        while i < text.count {
            // The scalar at i: its lead byte's high bits say how many bytes follow (valid UTF-8).
            let lead = UInt32(text[i])
            var value = lead
            var length = 1
            if lead >= 0xF0 {
                (value, length) = (lead & 0x07, 4)
            } else if lead >= 0xE0 {
                (value, length) = (lead & 0x0F, 3)
            } else if lead >= 0xC0 {
                (value, length) = (lead & 0x1F, 2)
            }
            for k in 1..<length { value = value << 6 | UInt32(text[i + k] & 0x3F) }
            if !TextRule.isSpace(value) { return nil }
            i += length
        }
        return "is empty"
    }

    /// Unicode's space separators (general category Zs) and the tab: what "blank" text is made of.
    static func isSpace(_ value: UInt32) -> Bool {
        value == 0x20 || value == 0x09 || value == 0xA0 || value == 0x1680 || (0x2000...0x200A).contains(value)
            || value == 0x202F || value == 0x205F || value == 0x3000
    }
}

/// A number written as text, as CMSs send prices ("199", "¥1,299.00"): spaces, an optional "¥" or "￥",
/// spaces, 1 to 12 digits with at most one "," between any two, an optional fraction (a "." and digits),
/// spaces. So its value is below 10^12.
enum NumericText {
    /// The same rule as a regular expression, for the schema: ECMA-262, Python and ICU read it alike
    /// (`(?![\s\S])` is the end of the text, which "$" is not in all of them).
    static let pattern = #"^ *[¥￥]? *[0-9](,?[0-9]){0,11}(\.[0-9]+)? *(?![\s\S])"#

    /// The value of the UTF-8 bytes `utf8`, or nil when they are not such a number. Only ASCII bytes and
    /// those of "¥" and "￥" are accepted, so invalid UTF-8 is refused as its repaired String (which has
    /// U+FFFD, EF BF BD, in its place) would be: a decode reads a string's bytes as the tape has them.
    static func value<Bytes: Sequence>(_ utf8: Bytes) -> Double? where Bytes.Element == UInt8 {
        var bytes = utf8.makeIterator()
        var b = bytes.next()
        func spaces() { while b == 0x20 { b = bytes.next() } }
        spaces()
        // "¥" is C2 A5, "￥" EF BF A5.
        if b == 0xC2 {
            guard bytes.next() == 0xA5 else { return nil }
            b = bytes.next()
        } else if b == 0xEF {
            guard bytes.next() == 0xBF, bytes.next() == 0xA5 else { return nil }
            b = bytes.next()
        }
        spaces()
        var whole: Double = 0
        var digits = 0
        var comma = false
        while let c = b {
            if c >= 0x30 && c <= 0x39 {
                whole = whole * 10 + Double(c - 0x30)
                digits += 1
                comma = false
            } else if c == 0x2C, digits > 0, !comma {
                comma = true
            } else {
                break
            }
            b = bytes.next()
        }
        guard digits > 0, digits <= 12, !comma else { return nil }
        var value = whole
        if b == 0x2E {
            // All the digits as one whole number over a power of ten: one correctly rounded division.
            var scale: Double = 1
            b = bytes.next()
            while let c = b, c >= 0x30 && c <= 0x39 {
                if scale < 1e15 {
                    value = value * 10 + Double(c - 0x30)
                    scale *= 10
                }
                b = bytes.next()
            }
            guard scale > 1 else { return nil }
            value /= scale
        }
        spaces()
        return b == nil ? value : nil
    }
}
