import UTF8Validation

/// The fields of one JSON object, as a `Declared` initializer reads them. Non-generic, a few words on the
/// stack, over the floor's parsed tape: a read finds its key among the object's members (byte compares;
/// the last of repeated keys wins, as before) and converts the value; nothing is allocated but the strings
/// and arrays the model keeps. Errors carry the node at fault and the message; the JSON path is worked out
/// only when one is reported.
///
/// Each read has a required form (the property is not optional: absent or null is an error) and an
/// optional one (an optional property: absent or null is nil), chosen by the type it is assigned to.
/// `about` is the field's description in the schema. When describing (the plugin loading), a read notes
/// its field in the declaration and returns a placeholder.
public struct Fields {
    @usableFromInline let context: UnsafeMutablePointer<DecodeContext>?
    @usableFromInline let node: Int32
    @usableFromInline let declaring: DeclaredNode?

    @usableFromInline init(context: UnsafeMutablePointer<DecodeContext>, node: Int32) {
        self.context = context
        self.node = node
        declaring = nil
    }

    @usableFromInline init(describing node: DeclaredNode) {
        context = nil
        self.node = 0
        declaring = node
    }

    // MARK: Text

    public func string(_ key: StaticString, _ about: StaticString = "", _ rule: TextRule = .any)
        throws(DecodeError) -> String
    {
        if let declaring {
            declaring.field(key, .string, about, required: true).text = rule
            return ""
        }
        return try string(at: required(key), rule)
    }

    public func string(_ key: StaticString, _ about: StaticString = "", _ rule: TextRule = .any)
        throws(DecodeError) -> String?
    {
        if let declaring {
            declaring.field(key, .string, about, required: false).text = rule
            return nil
        }
        guard let value = present(key) else { return nil }
        return try string(at: value, rule)
    }

    /// A string the model keeps as a `Text`: its bytes go into the buffer the floor's texts share, not an
    /// allocation of their own (see Text). The same field, rule and schema as `string`.
    public func text(_ key: StaticString, _ about: StaticString = "", _ rule: TextRule = .any)
        throws(DecodeError) -> Text
    {
        if let declaring {
            declaring.field(key, .string, about, required: true).text = rule
            return Text("")
        }
        return try text(at: required(key), rule)
    }

    public func text(_ key: StaticString, _ about: StaticString = "", _ rule: TextRule = .any)
        throws(DecodeError) -> Text?
    {
        if let declaring {
            declaring.field(key, .string, about, required: false).text = rule
            return nil
        }
        guard let value = present(key) else { return nil }
        return try text(at: value, rule)
    }

    /// A list of strings.
    public func strings(_ key: StaticString, _ about: StaticString = "") throws(DecodeError) -> [String] {
        try strings(key, about, required: true) ?? []
    }

    public func strings(_ key: StaticString, _ about: StaticString = "") throws(DecodeError) -> [String]? {
        try strings(key, about, required: false)
    }

    // MARK: Numbers

    /// A number, within `range` when one is given.
    public func number(_ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Double>? = nil)
        throws(DecodeError) -> Double
    {
        if let declaring {
            declaring.field(key, .number, about, required: true).bound(range)
            return range?.lowerBound ?? 0
        }
        return try number(at: required(key), range)
    }

    public func number(_ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Double>? = nil)
        throws(DecodeError) -> Double?
    {
        if let declaring {
            declaring.field(key, .number, about, required: false).bound(range)
            return nil
        }
        guard let value = present(key) else { return nil }
        return try number(at: value, range)
    }

    /// A number, `default` when absent or null.
    public func number(
        _ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Double>? = nil, default: Double
    ) throws(DecodeError) -> Double {
        if let declaring {
            let field = declaring.field(key, .number, about, required: false)
            field.bound(range)
            field.defaultValue = DeclaredNode.format(`default`)
            return `default`
        }
        guard let value = present(key) else { return `default` }
        return try number(at: value, range)
    }

    /// A whole number (1, 1.0 and 1e0 alike), within `range` when one is given.
    public func integer(_ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Int>? = nil)
        throws(DecodeError) -> Int
    {
        if let declaring {
            declaring.field(key, .integer, about, required: true).bound(range)
            return range?.lowerBound ?? 0
        }
        return try integer(at: required(key), range)
    }

    public func integer(_ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Int>? = nil)
        throws(DecodeError) -> Int?
    {
        if let declaring {
            declaring.field(key, .integer, about, required: false).bound(range)
            return nil
        }
        guard let value = present(key) else { return nil }
        return try integer(at: value, range)
    }

    /// A whole number, `default` when absent or null.
    public func integer(
        _ key: StaticString, _ about: StaticString = "", _ range: ClosedRange<Int>? = nil, default: Int
    ) throws(DecodeError) -> Int {
        if let declaring {
            let field = declaring.field(key, .integer, about, required: false)
            field.bound(range)
            field.defaultValue = "\(`default`)"
            return `default`
        }
        guard let value = present(key) else { return `default` }
        return try integer(at: value, range)
    }

    /// An amount from 0 to `maximum` (at least 10^12), sent as a number or as text holding one ("199",
    /// "¥1,299.00": `NumericText`). Text that is not a number is an error, so a CMS's typo ("19x9") is
    /// reported, not shown beside a real price.
    public func amount(_ key: StaticString, _ about: StaticString = "", maximum: Double) throws(DecodeError)
        -> Double
    {
        if let declaring {
            declaring.field(key, [.number, .string], about, required: true).amount(maximum)
            return 0
        }
        return try amount(at: required(key), maximum)
    }

    public func amount(_ key: StaticString, _ about: StaticString = "", maximum: Double) throws(DecodeError)
        -> Double?
    {
        if let declaring {
            declaring.field(key, [.number, .string], about, required: false).amount(maximum)
            return nil
        }
        guard let value = present(key) else { return nil }
        return try amount(at: value, maximum)
    }

    // MARK: Booleans

    public func bool(_ key: StaticString, _ about: StaticString = "") throws(DecodeError) -> Bool {
        if let declaring {
            declaring.field(key, .boolean, about, required: true)
            return false
        }
        return try bool(at: required(key))
    }

    public func bool(_ key: StaticString, _ about: StaticString = "") throws(DecodeError) -> Bool? {
        if let declaring {
            declaring.field(key, .boolean, about, required: false)
            return nil
        }
        guard let value = present(key) else { return nil }
        return try bool(at: value)
    }

    /// true or false, `default` when absent or null.
    public func bool(_ key: StaticString, _ about: StaticString = "", default: Bool) throws(DecodeError) -> Bool {
        if let declaring {
            declaring.field(key, .boolean, about, required: false).defaultValue = `default` ? "true" : "false"
            return `default`
        }
        guard let value = present(key) else { return `default` }
        return try bool(at: value)
    }

    // MARK: Objects and lists

    /// An object, declared by its own type.
    @inlinable
    public func value<Value: Declared>(_ key: StaticString, _ about: StaticString = "") throws(DecodeError) -> Value {
        try Value(object(key, about, required: true)!)
    }

    @inlinable
    public func value<Value: Declared>(_ key: StaticString, _ about: StaticString = "") throws(DecodeError)
        -> Value?
    {
        guard let fields = try object(key, about, required: false) else { return nil }
        guard fields.declaring == nil else {
            _ = try? Value(fields)  // describes the object; an absent optional field's placeholder is nil
            return nil
        }
        return try Value(fields)
    }

    /// A list of objects with at least `minItems` of them. `dropping`: an element that does not decode is
    /// left out (reported with its path and reason, "...; item left out") and the others kept, so one bad
    /// product does not take the whole feed with it; `minItems` counts the elements kept.
    @inlinable
    public func list<Item: Declared>(
        _ key: StaticString, _ about: StaticString = "", minItems: Int = 0, dropping: Bool = false
    ) throws(DecodeError) -> [Item] {
        var items: [Item] = []
        try elements(
            key, about, minItems: minItems, dropping: dropping, required: true,
            describe: { fields in _ = try? Item(fields) }, reserve: { items.reserveCapacity($0) },
            element: { fields throws(DecodeError) in items.append(try Item(fields)) })
        return items
    }

    @inlinable
    public func list<Item: Declared>(
        _ key: StaticString, _ about: StaticString = "", minItems: Int = 0, dropping: Bool = false
    ) throws(DecodeError) -> [Item]? {
        var items: [Item] = []
        let present = try elements(
            key, about, minItems: minItems, dropping: dropping, required: false,
            describe: { fields in _ = try? Item(fields) }, reserve: { items.reserveCapacity($0) },
            element: { fields throws(DecodeError) in items.append(try Item(fields)) })
        return present ? items : nil
    }
}

// MARK: Reading the tape

extension Fields {
    var nodes: UnsafePointer<JSONTape.Node> { context.unsafelyUnwrapped.pointee.nodes }

    /// The value node of `key` in this object, if any; the last of repeated keys. A plain key is compared
    /// here, length first (an escaped one through the tape's unescaping), in wrapping arithmetic on the
    /// tape's indices, which are below 2^31: a look-up runs eight times a product.
    ///
    /// An object whose keys cannot repeat (the tape's `keysMayRepeat`, nearly every one) is searched from
    /// the member after the last one found in it, wrapping round, and the search stops at the match: a
    /// model reads its fields in the JSON's order, so each read usually matches at its first compare.
    @inline(__always)
    func member(_ key: StaticString) -> Int32? {
        let context = context.unsafelyUnwrapped
        let nodes = context.pointee.nodes
        let object = nodes[Int(node)]
        if object.keysMayRepeat { return lastMember(key) }
        let bytes = context.pointee.tape.bytes.baseAddress.unsafelyUnwrapped
        let keyStart = UnsafeRawPointer(key.utf8Start)
        let keyCount = key.utf8CodeUnitCount
        var member = Int(node) &+ 1
        var ordinal: Int32 = 0
        if context.pointee.resume.object == node {
            member = Int(context.pointee.resume.member)
            ordinal = context.pointee.resume.ordinal
        }
        var left = object.count
        while left > 0 {
            if ordinal == object.count {
                member = Int(node) &+ 1
                ordinal = 0
            }
            let name = nodes[member]
            let value = member &+ 1
            ordinal &+= 1
            if Int(name.end &- name.start) == keyCount, JSONTape.same(bytes + Int(name.start), keyStart, keyCount) {
                context.pointee.resume = (node, nodes[value].next, ordinal)
                return Int32(truncatingIfNeeded: value)
            }
            member = Int(nodes[value].next)
            left &-= 1
        }
        return nil
    }

    /// `member` in an object whose keys may repeat: every member compared, the last match kept.
    private func lastMember(_ key: StaticString) -> Int32? {
        let context = context.unsafelyUnwrapped
        let nodes = context.pointee.nodes
        let bytes = context.pointee.tape.bytes.baseAddress.unsafelyUnwrapped
        let keyStart = UnsafeRawPointer(key.utf8Start)
        let keyCount = key.utf8CodeUnitCount
        var member = Int(node) &+ 1
        var found = -1
        var left = nodes[Int(node)].count
        while left > 0 {
            let name = nodes[member]
            if name.escaped {
                if context.pointee.tape.string(name, equals: key) { found = member &+ 1 }
            } else if Int(name.end &- name.start) == keyCount,
                JSONTape.same(bytes + Int(name.start), keyStart, keyCount)
            {
                found = member &+ 1
            }
            member = Int(nodes[member &+ 1].next)
            left &-= 1
        }
        return found < 0 ? nil : Int32(truncatingIfNeeded: found)
    }

    /// The value of a required field: absent is "required field is missing" at the field's path.
    func required(_ key: StaticString) throws(DecodeError) -> Int32 {
        guard let value = member(key) else {
            throw DecodeError(node: node, missing: key, "required field is missing")
        }
        return value
    }

    /// The value of an optional field, nil when absent or null.
    func present(_ key: StaticString) -> Int32? {
        guard let value = member(key), nodes[Int(value)].kind != .null else { return nil }
        return value
    }

    /// "expected a string, found number": what the read expects, and what the node is.
    func mismatch(_ value: Int32, _ expected: StaticString) -> DecodeError {
        DecodeError(node: value, "expected \(expected.text), found \(nodes[Int(value)].kind.found.text)")
    }

    func string(at value: Int32, _ rule: TextRule) throws(DecodeError) -> String {
        let node = nodes[Int(value)]
        guard node.kind == .string else { throw mismatch(value, "a string") }
        let text = context.unsafelyUnwrapped.pointee.tape.string(node)
        if let problem = rule.check(text) { throw DecodeError(node: value, problem.text) }
        return text
    }

    /// The string at `value` appended to the decode's text buffer: plain valid UTF-8 copied as it is (plain
    /// ASCII without a second look: the tape saw every byte), anything else (escapes, invalid UTF-8) as the
    /// String `string(at:)` makes of it.
    func text(at value: Int32, _ rule: TextRule) throws(DecodeError) -> Text {
        let node = nodes[Int(value)]
        guard node.kind == .string else { throw mismatch(value, "a string") }
        let context = context.unsafelyUnwrapped
        let raw = context.pointee.tape.slice(node)
        let buffer = context.pointee.textBuffer()
        let start: Int
        let count: Int
        if !node.escaped && (node.ascii || ValidUTF8.check(raw)) {
            start = buffer.append(raw)
            count = raw.count
        } else {
            var string = context.pointee.tape.string(node)
            count = string.utf8.count
            start = string.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
        }
        let text = Text(buffer: buffer, start: start, count: count)
        if let problem = text.withUTF8({ rule.check(utf8: $0) }) { throw DecodeError(node: value, problem.text) }
        return text
    }

    /// The number literal at `value` as a finite Double: a literal beyond Double's range (1e400) is refused
    /// rather than read as an infinity.
    func double(at value: Int32) throws(DecodeError) -> Double {
        let literal = context.unsafelyUnwrapped.pointee.tape.slice(nodes[Int(value)])
        let number = NumberLiteral.value(literal)
        guard number.isFinite else {
            throw DecodeError(node: value, "number \(String(decoding: literal, as: UTF8.self)) is out of range")
        }
        return number
    }

    func number(at value: Int32, _ range: ClosedRange<Double>?) throws(DecodeError) -> Double {
        guard nodes[Int(value)].kind == .number else { throw mismatch(value, "a number") }
        let number = try double(at: value)
        if let range, !range.contains(number) {
            throw DecodeError(
                node: value,
                "expected a number from \(DeclaredNode.format(range.lowerBound)) to \(DeclaredNode.format(range.upperBound)), found \(literal(value))"
            )
        }
        return number
    }

    func integer(at value: Int32, _ range: ClosedRange<Int>?) throws(DecodeError) -> Int {
        guard nodes[Int(value)].kind == .number else { throw mismatch(value, "a number") }
        let number = try double(at: value)
        // 1e3 or 2.0 are integers too when exact.
        guard number.rounded() == number, let whole = Int(exactly: number) else {
            throw DecodeError(
                node: value, "number \(literal(value)) is not a whole number from \(Int.min) to \(Int.max)")
        }
        if let range, !range.contains(whole) {
            throw DecodeError(
                node: value,
                "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(literal(value))")
        }
        return whole
    }

    func amount(at value: Int32, _ maximum: Double) throws(DecodeError) -> Double {
        let node = nodes[Int(value)]
        if node.kind == .string {
            // A plain string's bytes as they are (NumericText refuses invalid UTF-8 as its String would be
            // refused); only an escaped one is unescaped first.
            let context = context.unsafelyUnwrapped
            let amount =
                node.escaped
                ? NumericText.value(context.pointee.tape.string(node).utf8)
                : NumericText.value(context.pointee.tape.slice(node))
            guard let amount else {
                let text = context.pointee.tape.string(node)
                throw DecodeError(
                    node: value,
                    "\"\(text)\" is not a number (digits, an optional ¥ before them, ',' between them, '.' before a fraction)"
                )
            }
            return amount
        }
        guard node.kind == .number else { throw mismatch(value, "a number or a numeric string") }
        return try number(at: value, 0...maximum)
    }

    func bool(at value: Int32) throws(DecodeError) -> Bool {
        switch nodes[Int(value)].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(value, "true or false")
        }
    }

    /// A number node's text as written, for messages.
    func literal(_ value: Int32) -> String {
        String(decoding: context.unsafelyUnwrapped.pointee.tape.slice(nodes[Int(value)]), as: UTF8.self)
    }

    func strings(_ key: StaticString, _ about: StaticString, required: Bool) throws(DecodeError) -> [String]? {
        if let declaring {
            let field = declaring.field(key, .array, about, required: required)
            field.element = DeclaredNode(kinds: .string)
            return nil
        }
        guard let list = required ? try self.required(key) : present(key) else { return nil }
        let node = nodes[Int(list)]
        guard node.kind == .array else { throw mismatch(list, "an array") }
        var out: [String] = []
        out.reserveCapacity(Int(node.count))
        var element = list + 1
        for _ in 0..<node.count {
            out.append(try string(at: element, .any))
            element = nodes[Int(element)].next
        }
        return out
    }

    /// The fields of the object at `key`: nil when an optional one is absent or null. Describing, the
    /// fields of its declaration (after noting the field).
    @usableFromInline
    func object(_ key: StaticString, _ about: StaticString, required: Bool) throws(DecodeError) -> Fields? {
        if let declaring {
            return Fields(describing: declaring.field(key, .object, about, required: required))
        }
        guard let value = required ? try self.required(key) : present(key) else { return nil }
        guard nodes[Int(value)].kind == .object else { throw mismatch(value, "an object") }
        return Fields(context: context.unsafelyUnwrapped, node: value)
    }

    /// Runs `element` on each object of the list at `key` (after `reserve` with their count); returns false
    /// when an optional list is absent or null. Describing, notes the list and runs `describe` once on its
    /// element's declaration.
    @usableFromInline
    @discardableResult
    func elements(
        _ key: StaticString, _ about: StaticString, minItems: Int, dropping: Bool, required: Bool,
        describe: (Fields) -> Void, reserve: (Int) -> Void, element: (Fields) throws(DecodeError) -> Void
    ) throws(DecodeError) -> Bool {
        if let declaring {
            let field = declaring.field(key, .array, about, required: required)
            if minItems > 0 { field.minItems = minItems }
            let item = DeclaredNode(kinds: .object)
            field.element = item
            describe(Fields(describing: item))
            return false
        }
        guard let list = required ? try self.required(key) : present(key) else { return false }
        let context = context.unsafelyUnwrapped
        let nodes = context.pointee.nodes
        let node = nodes[Int(list)]
        guard node.kind == .array else { throw mismatch(list, "an array") }
        reserve(Int(node.count))
        var kept = 0
        var item = list + 1
        for _ in 0..<node.count {
            let next = nodes[Int(item)].next
            do throws(DecodeError) {
                guard nodes[Int(item)].kind == .object else { throw mismatch(item, "an object") }
                try element(Fields(context: context, node: item))
                kept += 1
            } catch {
                guard dropping else { throw error }
                var problem = context.pointee.problem(error)
                problem.message += "; item left out"
                context.pointee.leftOut.append(problem)
            }
            item = next
        }
        if kept < minItems {
            throw DecodeError(
                node: list,
                "expected at least \(minItems) item\(minItems == 1 ? "" : "s"), found \(kept == 0 ? "none" : "\(kept)")"
            )
        }
        return true
    }
}

extension DeclaredNode {
    func bound(_ range: ClosedRange<Double>?) {
        minimum = range?.lowerBound
        maximum = range?.upperBound
    }

    func bound(_ range: ClosedRange<Int>?) {
        minimum = range.map { Double($0.lowerBound) }
        maximum = range.map { Double($0.upperBound) }
    }

    func amount(_ maximum: Double) {
        minimum = 0
        self.maximum = maximum
        text = .numeric
    }

    /// A bound or a default as JSON text: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}
