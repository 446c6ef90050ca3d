import FloorCore
import HostContract

/// One walk over a floor's bytes that does everything the host reads a floor for: the page scanner's
/// validation and fields (`type`, `pattern`, `id`, repeated keys), the floor's signature (content hashes,
/// item identities: FloorSignature) and the check against its type's schema (SchemaValidator), each value
/// read once by one JSONCursor. The page scanner drives it floor by floor; FloorSignature(json:) and
/// SchemaValidator.validate drive it over a floor alone.
///
/// How the schema check rides along: a floor's schema is its type's, and `type` is one of its keys, so the
/// check starts when the walk reads the first string `type` (or `pattern`) that names a type with a schema.
/// Members before that key (an `id` written first) are checked then from where they stand: the only bytes
/// walked twice, a few for the usual page. A floor whose final type is not the one the check started with
/// (a repeated `type` with another name, `pattern` then a different `type`) is checked again on its own.
/// Findings come out in the validator's order: members in page order, then missing required fields.
///
/// Recursion follows the data down to `recursionDepth` (and a schema as deep as it goes); deeper values are
/// walked with a stack of their own, so the walk holds JSONCursor.maxDepth on any thread.
/// Allocation: for a floor that conforms, nothing beyond what the scanner and the signature keep (the
/// findings' path is the walk's own, reused floor after floor: FindingPath).
package struct FloorWalk {
    package var cursor: JSONCursor
    /// The floor type named in schema messages.
    var typeName = ""
    /// Where the schema check is in the floor, for findings' paths; empty between values of a floor. The
    /// walk's own: a walk is not copied while it walks.
    let path = FindingPath()
    var findings: [SchemaFinding] = []
    /// Where the floor being walked has a string with a lone surrogate escape (`"\uD800"`), by offset.
    var loneSurrogates: [Int] = []
    /// Where the floor being walked has a string holding U+0000 (`"a\u0000b"`), by offset.
    var stringsWithNUL: [Int] = []
    /// The `id` of the object last walked with `capturingID` (a floor item's identity), as its hash
    /// (FloorSignature.idHash): of a string, or of an integer as written; 0 otherwise.
    var capturedID: UInt64 = 0
    /// The last string `value` read, and whether the last number was an integer: a floor field's value
    /// without reading it again.
    var lastString = JSONStringSpan(start: 0, end: 0, escaped: false)
    var lastNumberIsInteger = false
    /// Lines and columns counted up to the end of the last floor a streamed scan handed over (PageScanner's
    /// `scan(_:schemas:found:)`); nil on any other walk.
    var counted: SourcePosition.Counter?

    package init(_ cursor: JSONCursor) { self.cursor = cursor }

    // MARK: Any value

    /// Walks the value at `pos` (no whitespace before it): validates it, returns its content hash and checks
    /// it against `schema` when there is one. Hashes are of values: strings by their decoded text, numbers and
    /// literals as written, arrays in order, objects in any order of keys.
    mutating func value(_ schema: FloorSchema?, capturingID: Bool = false) throws(JSONSyntaxError) -> UInt64 {
        let start = cursor.pos
        guard start < cursor.count else { throw cursor.unexpected("expected a value") }
        // Byte literals rather than JSONByte's names, and `unsafelyUnwrapped` rather than `if let` (which
        // retained the schema around each check): this switch is the walk's hottest code.
        switch cursor.raw.load(fromByteOffset: start, as: UInt8.self) {
        case UInt8(ascii: "{") where schema == nil && !capturingID && cursor.depth >= Self.recursionDepth,
            UInt8(ascii: "[") where schema == nil && cursor.depth >= Self.recursionDepth:
            return try deepValue()
        case UInt8(ascii: "{"):
            if schema == nil || schema.unsafelyUnwrapped.kinds.contains(.object) {
                return try object(schema, capturingID: capturingID)
            }
            let hash = try object(nil, capturingID: capturingID)
            wrongKind(.object, for: schema.unsafelyUnwrapped)
            return hash
        case UInt8(ascii: "["):
            if schema == nil || schema.unsafelyUnwrapped.kinds.contains(.array) { return try array(schema) }
            let hash = try array(nil)
            wrongKind(.array, for: schema.unsafelyUnwrapped)
            return hash
        case UInt8(ascii: "\""):
            let span = try cursor.string()
            lastString = span
            if span.escaped { return escapedString(span, at: start, schema) }
            if schema != nil { check(text: cursor.bytes(span.start, span.end), against: schema.unsafelyUnwrapped) }
            return cursor.stringHash(span)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let integer = try cursor.number()
            lastNumberIsInteger = integer
            if schema != nil { check(number: start, integer: integer, against: schema.unsafelyUnwrapped) }
            return cursor.scalarHash(from: start)
        case UInt8(ascii: "t"):
            try cursor.literal("true")
            if schema != nil { check(literal: start, .boolean, against: schema.unsafelyUnwrapped) }
            return cursor.scalarHash(from: start)
        case UInt8(ascii: "f"):
            try cursor.literal("false")
            if schema != nil { check(literal: start, .boolean, against: schema.unsafelyUnwrapped) }
            return cursor.scalarHash(from: start)
        case UInt8(ascii: "n"):
            try cursor.literal("null")
            if schema != nil { check(literal: start, .null, against: schema.unsafelyUnwrapped) }
            return cursor.scalarHash(from: start)
        default:
            throw cursor.unexpected("expected a value")
        }
    }

    /// A string with escapes, read at `start` (its quote): its text decoded once, for the lone surrogates
    /// and NULs it holds, the check against `schema` and its hash (JSONCursor.stringHash's).
    @inline(never)
    mutating func escapedString(_ span: JSONStringSpan, at start: Int, _ schema: FloorSchema?) -> UInt64 {
        let content = cursor.bytes(span.start, span.end)
        var decoded: [UInt8] = []
        JSONStringContent.decode(content, into: &decoded)
        return decoded.withUnsafeBytes { text in
            // A lone surrogate decodes to U+FFFD (EF BF BD), so text without one has none; text with one
            // may have it as itself or as `\uFFFD`, which the escapes tell apart.
            if JSONStringContent.hasReplacementCharacter(text), JSONStringContent.hasLoneSurrogate(content) {
                loneSurrogates.append(start)
            }
            // U+0000 can only be written `\u0000`, which decodes to a zero byte.
            if text.contains(0) { stringsWithNUL.append(start) }
            if let schema { check(text: text, against: schema) }
            var hash = ContentHash()
            hash.add(UInt8(ascii: "s"))
            hash.add(raw: text)
            return hash.value
        }
    }

    /// Precondition: at `{`. `capturingID`: sets `capturedID` from the object's `id` (the last one).
    mutating func object(_ schema: FloorSchema?, capturingID: Bool) throws(JSONSyntaxError) -> UInt64 {
        var hash = ObjectHash()
        var seen = ObjectCheck()
        var id: UInt64 = 0
        guard try cursor.openObject() else {
            if let schema { checkRequired(schema, seen) }
            if capturingID { capturedID = 0 }
            return hash.value
        }
        if schema != nil {
            // A property's schema is passed where the schema holds it, and the schema itself is not bound
            // (`if let` retained it): no reference counting per member.
            repeat {
                let key = try cursor.key()
                let valueStart = cursor.pos
                path.append(.key(key))
                let valueHash: UInt64
                let keyHash: UInt64
                let isID: Bool
                if let index = memberIndex(key, of: schema.unsafelyUnwrapped, &seen) {
                    let property = schema.unsafelyUnwrapped.propertyKeys.entries[index]
                    valueHash = try value(borrowing: property.schema)
                    keyHash = property.hash
                    isID = property.isID
                } else if case .schema(let other) = schema.unsafelyUnwrapped.additional {
                    valueHash = try value(other)
                    keyHash = cursor.keyHash(key)
                    isID = capturingID && cursor.matches(key, "id")
                } else {
                    valueHash = try value(nil)
                    keyHash = cursor.keyHash(key)
                    isID = capturingID && cursor.matches(key, "id")
                }
                path.removeLast()
                hash.add(key: keyHash, value: valueHash)
                if capturingID, isID { id = cursor.itemIDHash(at: valueStart, lastString: lastString) }
            } while try cursor.nextMember()
            checkRequired(schema.unsafelyUnwrapped, seen)
        } else {
            repeat {
                let key = try cursor.key()
                let valueStart = cursor.pos
                let valueHash = try value(nil)
                hash.add(key: cursor.keyHash(key), value: valueHash)
                if capturingID, cursor.matches(key, "id") {
                    id = cursor.itemIDHash(at: valueStart, lastString: lastString)
                }
            } while try cursor.nextMember()
        }
        if capturingID { capturedID = id }
        return hash.value
    }

    /// `value(_:)` against a property's schema, borrowed from the object schema that holds it: no reference
    /// counting per member.
    @inline(__always)
    mutating func value(borrowing schema: Unmanaged<FloorSchema>) throws(JSONSyntaxError) -> UInt64 {
        let result = schema._withUnsafeGuaranteedRef { schema in
            Result { () throws(JSONSyntaxError) -> UInt64 in try value(schema) }
        }
        return try result.get()
    }

    /// Precondition: at `[`.
    mutating func array(_ schema: FloorSchema?) throws(JSONSyntaxError) -> UInt64 {
        var hash = ContentHash()
        hash.add(UInt8(ascii: "["))
        let element = schema.flatMap(Self.elementSchema)
        var index = 0
        if try cursor.openArray() {
            repeat {
                if element != nil { path.append(.index(index)) }
                hash.add(try value(element))
                if element != nil { path.removeLast() }
                index += 1
            } while try cursor.nextElement()
        }
        checkCount(index, against: schema)
        return hash.value
    }

    /// Nesting (JSONCursor.depth, the page object being 1) below which `value` recurses; deeper values
    /// with no schema to check are walked by `deepValue`, so that the stack a walk needs is bounded by this
    /// and by the schema's depth (FloorSchema.maxDepth), not by the page: a page may nest 512 levels on a
    /// thread with a small stack.
    static var recursionDepth: Int { 32 }

    /// Precondition: at `{` or `[`. The value's hash, as `value(nil)` gives it, without recursion: the
    /// containers open inside it are a stack of their own (allocated for such deep values only). The cursor
    /// is stepped exactly as `object` and `array` step it, so errors are the same.
    mutating func deepValue() throws(JSONSyntaxError) -> UInt64 {
        struct Open {
            var object: Bool
            var elements = ContentHash()
            var members = ObjectHash()
            var key: UInt64 = 0
        }
        var open: [Open] = []
        while true {
            var result: UInt64
            let first = cursor.pos < cursor.count ? cursor.byte(cursor.pos) : 0
            if first == JSONByte.openBrace {
                if try cursor.openObject() {
                    open.append(Open(object: true, key: cursor.keyHash(try cursor.key())))
                    continue
                }
                result = ObjectHash().value
            } else if first == JSONByte.openBracket {
                var elements = ContentHash()
                elements.add(UInt8(ascii: "["))
                if try cursor.openArray() {
                    open.append(Open(object: false, elements: elements))
                    continue
                }
                result = elements.value
            } else {
                result = try value(nil)  // a scalar: no recursion
            }
            // The value ends the containers it was the last of.
            while let last = open.indices.last {
                if open[last].object {
                    open[last].members.add(key: open[last].key, value: result)
                    if try cursor.nextMember() {
                        open[last].key = cursor.keyHash(try cursor.key())
                        break
                    }
                    result = open[last].members.value
                } else {
                    open[last].elements.add(result)
                    if try cursor.nextElement() { break }
                    result = open[last].elements.value
                }
                open.removeLast()
            }
            if open.isEmpty { return result }
        }
    }

    // MARK: A floor

    /// A floor field the host reads, as last seen in the floor object.
    enum Field {
        case absent
        case text(String)
        /// Present but of the wrong kind; the associated text names what was found.
        case misfit(String)
    }

    /// The keys of a floor object that mean something to the scanner or to the signature.
    enum Role {
        case type, pattern, id, items, header, margin, layout, columns, other

        init(_ key: JSONStringSpan, in cursor: JSONCursor) {
            if cursor.matches(key, "type") {
                self = .type
            } else if cursor.matches(key, "id") {
                self = .id
            } else if cursor.matches(key, "items") {
                self = .items
            } else if cursor.matches(key, "header") {
                self = .header
            } else if cursor.matches(key, "margin") {
                self = .margin
            } else if cursor.matches(key, "pattern") {
                self = .pattern
            } else if cursor.matches(key, "layout") {
                self = .layout
            } else if cursor.matches(key, "columns") {
                self = .columns
            } else {
                self = .other
            }
        }
    }

    /// Walks the floor value at `pos` (the `index`th of its page): its FloorSpec with its signature, and its
    /// findings against the schema `schemas` gives for its type (nil when it gives none).
    mutating func floor(index: Int, schemas: (String) -> FloorSchema?) throws(JSONSyntaxError) -> FloorSpec {
        let start = cursor.pos
        guard cursor.at(JSONByte.openBrace) else {
            let whole = try value(nil)
            let kind = JSONValueKind(first: cursor.byte(start))?.rawValue ?? "nothing"
            return FloorSpec(
                index: index, type: nil, id: nil, bytes: start..<cursor.pos,
                problems: [
                    ScanProblem("floors[\(index)]", "must be an object, found \(kind)", at: start, .error, .placeholder)
                ],
                signature: FloorSignature(whole: whole)
            )
        }
        var type = Field.absent
        var pattern = Field.absent
        var id = Field.absent
        var keys = Set<String>()
        var problems: [ScanProblem] = []
        var typeAt = start
        var idAt = start
        var whole = ObjectHash()
        var own = ObjectHash()
        var header: UInt64 = 0
        var margin: UInt64 = 0
        var items: [FloorSignature.Item] = []
        var collection = CollectionRequest()
        // The schema check riding along: the schema of the first type the floor names that has one.
        var schema: FloorSchema?
        var schemaType: String?
        var seen = ObjectCheck()
        findings = []
        loneSurrogates = []
        stringsWithNUL = []
        if try cursor.openObject() {
            let firstMember = cursor.pos
            repeat {
                let keyStart = cursor.pos
                let key = try cursor.key()
                if let repeated = repeated(key, in: &keys) {
                    problems.append(
                        ScanProblem(
                            "floors[\(index)].\(repeated)", "duplicate key '\(repeated)'; the last value is used",
                            at: keyStart, .warning, .ignored))
                }
                let valueStart = cursor.pos
                let role = Role(key, in: cursor)
                if role == .type || role == .pattern { typeAt = keyStart }
                if role == .id { idAt = keyStart }
                let valueHash: UInt64
                if role == .type || role == .pattern, cursor.at(JSONByte.quote) {
                    let span = try cursor.string()
                    let name = cursor.text(span)
                    if role == .type { type = .text(name) } else { pattern = .text(name) }
                    if schemaType == nil, let named = schemas(name) {
                        (schema, schemaType, typeName) = (named, name, name)
                        if keyStart > firstMember { try recheck(firstMember..<keyStart, against: named, &seen) }
                    }
                    if let schema {
                        path.append(.key(key))
                        if let member = memberSchema(key, of: schema, &seen) { check(string: span, against: member) }
                        path.removeLast()
                    }
                    valueHash = cursor.stringHash(span)
                } else {
                    var member: FloorSchema?
                    if let schema {
                        path.append(.key(key))
                        member = memberSchema(key, of: schema, &seen)
                    }
                    if role == .items, cursor.at(JSONByte.openBracket) {
                        valueHash = try self.items(member, into: &items)
                    } else {
                        valueHash = try value(member)
                        if role == .items { items = [] }
                    }
                    if schema != nil { path.removeLast() }
                    switch role {
                    case .type: type = .misfit(kind(at: valueStart))
                    case .pattern: pattern = .misfit(kind(at: valueStart))
                    case .id: id = idField(at: valueStart)
                    case .layout: collection.layout = commonField(at: valueStart)
                    case .columns: collection.columns = commonField(at: valueStart)
                    default: break
                    }
                }
                let keyHash = cursor.keyHash(key)
                whole.add(key: keyHash, value: valueHash)
                switch role {
                case .items: break
                case .header: header = valueHash
                case .margin: margin = valueHash
                default: own.add(key: keyHash, value: valueHash)
                }
            } while try cursor.nextMember()
        }
        if let schema { checkRequired(schema, seen) }
        var typeName: String?
        switch (type, pattern) {
        case (.text(let name), _), (.absent, .text(let name)):
            typeName = name
        case (.misfit(let found), _):
            problems.append(
                ScanProblem(
                    "floors[\(index)].type", "must be a string, found \(found)", at: typeAt, .error, .placeholder))
        case (.absent, .misfit(let found)):
            problems.append(
                ScanProblem(
                    "floors[\(index)].pattern", "must be a string, found \(found)", at: typeAt, .error, .placeholder))
        case (.absent, .absent):
            problems.append(ScanProblem("floors[\(index)]", "has no 'type'", at: start, .error, .placeholder))
        }
        var floorID: String?
        switch id {
        case .text(let text):
            floorID = text
        case .misfit(let found):
            problems.append(
                ScanProblem(
                    "floors[\(index)].id", "must be a string or an integer, found \(found)", at: idAt, .warning,
                    .ignored))
        case .absent:
            break  // the decoder names the floor by its path and says so
        }
        // The schema of the type the floor ends up with: the one checked on the way, or (a floor that named
        // another type first) a check of its own.
        var checked: [SchemaFinding]?
        if let typeName, let wanted = schemas(typeName) {
            checked =
                wanted === schema && schemaType == typeName
                ? findings
                : SchemaValidator.validate(cursor.bytes(start, cursor.pos), against: wanted, typeName: typeName).map {
                    var finding = $0
                    finding.offset += start  // from the floor's bytes to the page's
                    return finding
                }
        }
        findings = []
        for offset in loneSurrogates {
            let inFloor = JSONCursor.path(
                to: offset, in: UnsafeRawBufferPointer(start: cursor.raw, count: cursor.count), from: start)
            problems.append(
                ScanProblem(
                    DecodeReport.path(inFloor, in: "floors[\(index)]"),
                    "a \\u escape is half of a surrogate pair without the other half (U+D800 to U+DFFF stand only in pairs)",
                    at: offset, .error, .replaced))
        }
        let withNUL = stringsWithNUL.map { offset in
            let inFloor = JSONCursor.path(
                to: offset, in: UnsafeRawBufferPointer(start: cursor.raw, count: cursor.count), from: start)
            return FloorSpec.StringWithNUL(path: DecodeReport.path(inFloor, in: "floors[\(index)]"), offset: offset)
        }
        return FloorSpec(
            index: index, type: typeName, id: floorID, bytes: start..<cursor.pos, problems: problems,
            signature: FloorSignature(whole: whole.value, own: own.value, header: header, margin: margin, items: items),
            findings: checked, collection: collection, stringsWithNUL: withNUL)
    }

    /// A common field's value (`layout`, `columns`), walked already from `start`: text, a number, or what
    /// else was found.
    func commonField(at start: Int) -> CollectionRequest.Value {
        let first = cursor.byte(start)
        if first == JSONByte.quote { return .text(cursor.text(lastString)) }
        if first == JSONByte.minus || JSONByte.isDigit(first) {
            return Double(cursor.text(start, cursor.pos)).map { .number($0) } ?? .misfit("a number")
        }
        return .misfit(kind(at: start))
    }

    /// Precondition: at a floor's `items` array. Its hash, as `array` gives it, and each element as a floor
    /// item: its content hash and its identity (its `id`, else its content). `schema`: the member's.
    mutating func items(_ schema: FloorSchema?, into items: inout [FloorSignature.Item]) throws(JSONSyntaxError)
        -> UInt64
    {
        items.removeAll(keepingCapacity: true)
        let misfit = schema.map { !$0.kinds.contains(.array) } ?? false
        let element = misfit ? nil : schema.flatMap(Self.elementSchema)
        var hash = ContentHash()
        hash.add(UInt8(ascii: "["))
        if try cursor.openArray() {
            var index = 0
            repeat {
                capturedID = 0
                if element != nil { path.append(.index(index)) }
                let content = try value(element, capturingID: true)
                if element != nil { path.removeLast() }
                hash.add(content)
                items.append(FloorSignature.Item(id: capturedID, content: content))
                index += 1
            } while try cursor.nextElement()
            checkCount(index, against: misfit ? nil : schema)
        } else if !misfit {
            checkCount(0, against: schema)
        }
        if misfit, let schema { wrongKind(.array, for: schema) }
        return hash.value
    }

    /// Checks the members in `range` (members of the floor object before the key that named its type, walked
    /// already) against `schema`: the only bytes of a floor walked twice.
    mutating func recheck(_ range: Range<Int>, against schema: FloorSchema, _ seen: inout ObjectCheck)
        throws(JSONSyntaxError)
    {
        JSONWalkLog.record(cursor.raw + range.lowerBound, count: range.count, "members before 'type'")
        let resume = cursor.pos
        let depth = cursor.depth
        cursor.pos = range.lowerBound
        while cursor.pos < range.upperBound {
            let key = try cursor.key()
            path.append(.key(key))
            _ = try value(memberSchema(key, of: schema, &seen))
            path.removeLast()
            _ = try cursor.nextMember()
        }
        cursor.pos = resume
        cursor.depth = depth
    }

    /// The kind of the value at `i`, walked already, for a message.
    func kind(at i: Int) -> String { JSONValueKind(first: cursor.byte(i))?.rawValue ?? "nothing" }

    /// A floor's `id`, walked already from `start`: a string, or an integer kept as its decimal text.
    func idField(at start: Int) -> Field {
        let first = cursor.byte(start)
        if first == JSONByte.quote { return .text(cursor.text(lastString)) }
        if first == JSONByte.minus || JSONByte.isDigit(first) {
            guard lastNumberIsInteger else { return .misfit("a non-integer number") }
            return .text(String(decoding: cursor.bytes(start, cursor.pos), as: UTF8.self))
        }
        return .misfit(kind(at: start))
    }

    /// The key's name when `keys` (the keys seen so far in one object) already holds it; else adds it.
    /// Keys are decoded for this: an object's keys are few next to the values.
    func repeated(_ key: JSONStringSpan, in keys: inout Set<String>) -> String? {
        let name = cursor.text(key)
        return keys.insert(name).inserted ? nil : name
    }
}

/// The hashes of FloorSignature, from the bytes a cursor has read (on the cursor: five words and no
/// reference, so a call copies nothing that is counted).
extension JSONCursor {
    /// A key's hash: its decoded text (the bytes as they stand when it has no escape).
    func keyHash(_ key: JSONStringSpan) -> UInt64 {
        var hash = ContentHash()
        add(key, to: &hash)
        return hash.value
    }

    func stringHash(_ span: JSONStringSpan) -> UInt64 {
        var hash = ContentHash()
        hash.add(UInt8(ascii: "s"))
        add(span, to: &hash)
        return hash.value
    }

    /// The decoded text and its length (so that no two strings run into each other).
    @inline(__always) func add(_ span: JSONStringSpan, to hash: inout ContentHash) {
        if span.escaped {
            var utf8: [UInt8] = []
            JSONStringContent.decode(bytes(span.start, span.end), into: &utf8)
            utf8.withUnsafeBytes { hash.add(raw: $0) }
        } else {
            hash.add(raw: bytes(span.start, span.end))
        }
    }

    /// A number or a literal from `start` to `pos`, as written.
    func scalarHash(from start: Int) -> UInt64 {
        var hash = ContentHash()
        hash.add(UInt8(ascii: "n"))
        for i in start..<pos { hash.add(byte(i)) }
        return hash.value
    }

    /// The hash of an item's `id` (FloorSignature.idHash), walked already from `start` to `pos`: of a
    /// string's text (`lastString`, the last one read), or of an integer as written; else 0.
    func itemIDHash(at start: Int, lastString: JSONStringSpan) -> UInt64 {
        if byte(start) == JSONByte.quote { return FloorSignature.idHash(textHash: keyHash(lastString)) }
        let number = bytes(start, pos)
        let integer = number.allSatisfy { JSONByte.isDigit($0) || $0 == JSONByte.minus }
        return integer ? FloorSignature.idHash(number) : 0
    }

    /// The bytes from `start` to `end` as text (for a message).
    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes(start, end), as: UTF8.self)
    }
}
