import FloorCore

/// A page's content as an editor sees it: the page's own fields, and its floors, each with its type, its
/// `id`, its fields and its `items`, every value flattened to its leaves (`header.title`, `jump.url`,
/// `tags[1]`) as JSON text (`59.9`, `"¥59.90"`, `true`, `null`, `{}` for an empty object). What
/// `floorhost diff` compares first (ContentDiff), before what the change does to the screen (PageDiff).
///
/// Contract:
/// - Read from the page's bytes as they are, after the page decoder accepted them (so they are JSON);
///   a syntax error is thrown as the cursor reports it.
/// - A leaf's text is its JSON value written again: a string with its escapes resolved and written by
///   JSONWriter (`"a\u0000tail"` stays whole), a number as written on the page (59.9 and 59.90 differ, as
///   FloorSignature says), a literal as it is. Object members repeated keep the last value (JSON's usual
///   rule); key order and whitespace change nothing.
/// - A floor's key is its `type` (or `pattern`) and `id`; one without an `id` is known by its content, as
///   FloorKey says. An item's key is its `id` (a string, or an integer as written); one without is known by
///   its content, so an edited item without an id is a removed one and an added one.
public struct PageContent: Sendable {
    /// One value's leaves, in the order they were written (the last of a repeated key wins its place).
    public struct Fields: Sendable, Equatable {
        public private(set) var names: [String] = []
        public private(set) var values: [String: String] = [:]

        mutating func set(_ name: String, _ value: String) {
            if values.updateValue(value, forKey: name) == nil { names.append(name) }
        }

        public subscript(name: String) -> String? { values[name] }
    }

    public struct Item: Sendable {
        /// Its `id` as written (a string's text, or an integer's digits), or nil.
        public let id: String?
        /// Its index in the floor's `items`.
        public let index: Int
        public let fields: Fields

        /// What pairs it across versions: its id, else its content.
        public var key: String { id.map { "id:" + $0 } ?? "content:" + fields.joined }
    }

    public struct Floor: Sendable {
        public let type: String
        public let id: String?
        /// Its index in the page's `floors`.
        public let index: Int
        /// Every member but `type`, `pattern`, `id` and `items`.
        public let fields: Fields
        public let items: [Item]

        /// What pairs it across versions: type and id, else type and content (FloorKey's rule).
        public var key: String {
            type + "\u{0}" + (id.map { "id:" + $0 } ?? "content:" + fields.joined + items.map(\.key).joined())
        }
        /// How a line names it: its id, else its path.
        public var name: String { id ?? "floors[\(index)]" }
    }

    /// The page's members but `floors`: `title`, `next`, a CMS's own metadata.
    public let fields: Fields
    public let floors: [Floor]

    public init(bytes: [UInt8]) throws(JSONSyntaxError) {
        let read = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try Self.read(buffer) }
        }
        (fields, floors) = try read.get()
    }

    private static func read(_ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> (Fields, [Floor]) {
        var fields = Fields()
        var floors: [Floor] = []
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return (fields, floors) }
        var cursor = JSONCursor(base, count: buffer.count)
        cursor.skipWhitespace()
        guard cursor.at(JSONByte.openBrace) else {
            try leaves(&cursor, "", into: &fields)
            return (fields, floors)
        }
        guard try cursor.openObject() else { return (fields, floors) }
        repeat {
            let name = cursor.text(try cursor.key())
            if name == "floors", cursor.at(JSONByte.openBracket) {
                floors = []
                guard try cursor.openArray() else { continue }
                repeat { floors.append(try floor(&cursor, index: floors.count)) } while try cursor.nextElement()
            } else {
                try leaves(&cursor, name, into: &fields)
            }
        } while try cursor.nextMember()
        return (fields, floors)
    }

    private static func floor(_ cursor: inout JSONCursor, index: Int) throws(JSONSyntaxError) -> Floor {
        var type = ""
        var pattern = ""
        var id: String?
        var fields = Fields()
        var items: [Item] = []
        guard cursor.at(JSONByte.openBrace) else {
            try leaves(&cursor, "", into: &fields)
            return Floor(type: "", id: nil, index: index, fields: fields, items: [])
        }
        if try cursor.openObject() {
            repeat {
                let name = cursor.text(try cursor.key())
                switch name {
                case "type" where cursor.at(JSONByte.quote): type = cursor.text(try cursor.string())
                case "pattern" where cursor.at(JSONByte.quote): pattern = cursor.text(try cursor.string())
                case "id": id = try Self.id(&cursor)
                case "items" where cursor.at(JSONByte.openBracket):
                    items = []
                    guard try cursor.openArray() else { continue }
                    repeat { items.append(try item(&cursor, index: items.count)) } while try cursor.nextElement()
                default: try leaves(&cursor, name, into: &fields)
                }
            } while try cursor.nextMember()
        }
        return Floor(type: type.isEmpty ? pattern : type, id: id, index: index, fields: fields, items: items)
    }

    private static func item(_ cursor: inout JSONCursor, index: Int) throws(JSONSyntaxError) -> Item {
        var id: String?
        var fields = Fields()
        guard cursor.at(JSONByte.openBrace) else {
            try leaves(&cursor, "", into: &fields)
            return Item(id: nil, index: index, fields: fields)
        }
        if try cursor.openObject() {
            repeat {
                let name = cursor.text(try cursor.key())
                if name == "id" {
                    id = try Self.id(&cursor)
                } else {
                    try leaves(&cursor, name, into: &fields)
                }
            } while try cursor.nextMember()
        }
        return Item(id: id, index: index, fields: fields)
    }

    /// An `id`: a string's text, an integer's digits; nil (and the value skipped) for anything else.
    private static func id(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> String? {
        let start = cursor.pos
        if cursor.at(JSONByte.quote) { return cursor.text(try cursor.string()) }
        if try cursor.skipValue() == .number {
            let digits = String(decoding: cursor.bytes(start, cursor.pos), as: UTF8.self)
            return digits.allSatisfy { $0 == "-" || $0.isASCII && $0.isNumber } ? digits : nil
        }
        return nil
    }

    /// The value at the cursor, its leaves named from `prefix` (`a.b`, `a[0]`).
    private static func leaves(_ cursor: inout JSONCursor, _ prefix: String, into fields: inout Fields)
        throws(JSONSyntaxError)
    {
        let start = cursor.pos
        switch cursor.pos < cursor.count ? cursor.byte(cursor.pos) : 0 {
        case JSONByte.openBrace:
            guard try cursor.openObject() else { return fields.set(prefix, "{}") }
            repeat {
                let name = cursor.text(try cursor.key())
                try leaves(&cursor, prefix.isEmpty ? name : prefix + "." + name, into: &fields)
            } while try cursor.nextMember()
        case JSONByte.openBracket:
            guard try cursor.openArray() else { return fields.set(prefix, "[]") }
            var i = 0
            repeat {
                try leaves(&cursor, "\(prefix)[\(i)]", into: &fields)
                i += 1
            } while try cursor.nextElement()
        case JSONByte.quote:
            var out = JSONWriter(capacity: 64)
            out.string(cursor.text(try cursor.string()))
            fields.set(prefix, String(decoding: out.bytes, as: UTF8.self))
        default:
            _ = try cursor.skipScalar()
            fields.set(prefix, String(decoding: cursor.bytes(start, cursor.pos), as: UTF8.self))
        }
    }
}

extension PageContent.Fields {
    /// Every leaf, in a fixed order (by name): what an id-less item or floor is known by.
    var joined: String { names.sorted().map { $0 + "=" + values[$0]! }.joined(separator: "\u{0}") }
}
