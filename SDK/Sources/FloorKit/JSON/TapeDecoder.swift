/// Decodes a Decodable from a floor's JSON bytes through a JSONTape: no dictionary per object, no boxed
/// values; strings and numbers are read from the bytes when asked for. Errors are the DecodingErrors
/// JSONDecoder throws, with the same coding paths and wording, so DecodingProblem reports them alike.
/// Not thread-safe; one decode at a time per tape.
enum FloorJSON {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription: "The given data was not valid JSON: \(error.message) at byte \(error.offset)."))
        }
        let box = TapeBox(tape)
        let value = try T(from: TapeDecoder(tape: box, node: 0, parent: nil, key: nil))
        box.texts?.fit()
        return value
    }
}

/// The tape, shared by reference among the decoders and containers of one decode, and the buffer the
/// decode's `Text`s share (as a declared decode's do: DecodeContext).
final class TapeBox {
    let tape: JSONTape
    private(set) var texts: TextBuffer?
    init(_ tape: JSONTape) { self.tape = tape }

    func textBuffer() -> TextBuffer {
        if let texts { return texts }
        let made = TextBuffer(capacity: tape.bytes.count)
        texts = made
        return made
    }
}

/// A key for array positions in coding paths ("items[2]").
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue!)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A key found in an object, for `allKeys`.
struct FoundKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

final class TapeDecoder: Decoder {
    let box: TapeBox
    let node: Int
    /// The coding path is built only when asked for (errors, custom init(from:)): parent and key.
    let parent: TapeDecoder?
    let key: (any CodingKey)?

    init(tape box: TapeBox, node: Int, parent: TapeDecoder?, key: (any CodingKey)?) {
        self.box = box
        self.node = node
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: TapeDecoder? = self
        while let d = decoder, let key = d.key {
            path.append(key)
            decoder = d.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, [String: Any].self, "a dictionary")
        return KeyedDecodingContainer(KeyedTapeContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, [Any].self, "an array")
        return UnkeyedTapeContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleTapeContainer(decoder: self) }

    // MARK: Values of this decoder's node

    var tape: JSONTape { box.tape }
    var kind: JSONTape.Kind { tape.nodes[node].kind }

    func expect(_ wanted: JSONTape.Kind, _ type: Any.Type, _ name: String) throws {
        guard kind == wanted else { throw typed(type, name) }
    }

    private var found: String { "\(kind.found)" }

    func decodeString() throws -> String {
        guard kind == .string else { throw typed(String.self, "String") }
        return tape.string(tape.nodes[node])
    }

    func decodeBool() throws -> Bool {
        switch kind {
        case .true: return true
        case .false: return false
        default: throw typed(Bool.self, "Bool")
        }
    }

    /// A number as a finite Double. A literal beyond Double's range (1e400) is refused rather than read as
    /// an infinity, which no model can use.
    func decodeDouble() throws -> Double {
        guard kind == .number else { throw typed(Double.self, "Double") }
        let text = String(decoding: tape.slice(tape.nodes[node]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "number \(text) is out of range"))
        }
        return value
    }

    /// A number as a finite Float: a Double beyond Float's range is refused, not turned into an infinity.
    func decodeFloat() throws -> Float {
        let double = try decodeDouble()
        let value = Float(double)
        guard value.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "number \(double) is out of range"))
        }
        return value
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard kind == .number else { throw typed(T.self, "\(T.self)") }
        let text = String(decoding: tape.slice(tape.nodes[node]), as: UTF8.self)
        if let value = T(text) { return value }
        // 1e3 or 2.0 are integers too when exact.
        if let double = Double(text), double.rounded() == double, let value = T(exactly: double) { return value }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath,
                debugDescription: "number \(text) is not a whole number from \(T.min) to \(T.max)"))
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: self)
    }

    private func typed(_ type: Any.Type, _ name: String) -> DecodingError {
        if kind == .null {
            return .valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "Expected \(name) value but found null instead."))
        }
        return .typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "Expected to decode \(name) but found \(found) instead."))
    }

    /// The decoder for a child node.
    func child(_ node: Int, key: any CodingKey) -> TapeDecoder {
        TapeDecoder(tape: box, node: node, parent: self, key: key)
    }
}

struct KeyedTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The value node of `key`, searching the members in order; the last of duplicate keys wins.
    private func find(_ key: Key) -> Int? {
        let tape = decoder.tape
        let name = key.stringValue
        var member = decoder.node + 1
        var found: Int?
        for _ in 0..<Int(tape.nodes[decoder.node].count) {
            if tape.string(tape.nodes[member], equals: name) { found = member + 1 }
            member = Int(tape.nodes[member + 1].next)
        }
        return found
    }

    private func value(_ key: Key) throws -> TapeDecoder {
        guard let node = find(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue).")
            )
        }
        return decoder.child(node, key: key)
    }

    var allKeys: [Key] {
        let tape = decoder.tape
        var keys: [Key] = []
        var member = decoder.node + 1
        for _ in 0..<Int(tape.nodes[decoder.node].count) {
            if let key = Key(stringValue: tape.string(tape.nodes[member])) { keys.append(key) }
            member = Int(tape.nodes[member + 1].next)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try value(key).kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).decodeInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(key).decode(T.self) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = find(key) else { return nil }
        let child = decoder.child(node, key: key)
        return child.kind == .null ? nil : try child.decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try value(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try value(key) }
}

struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    private var node: Int
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { Int(decoder.tape.nodes[decoder.node].count) }
    var isAtEnd: Bool { currentIndex >= count! }

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        node = decoder.node + 1
    }

    /// The decoder for the current element; advances past it.
    private mutating func next() throws -> TapeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                .init(
                    codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end.")
            )
        }
        let element = decoder.child(node, key: IndexKey(currentIndex))
        node = Int(decoder.tape.nodes[node].next)
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.tape.nodes[node].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decodeBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().decodeString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decodeDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decodeFloat() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeInteger(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeInteger(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeInteger(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeInteger(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeInteger(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeInteger(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeInteger(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeInteger(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeInteger(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeInteger(UInt64.self) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleTapeContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat() }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
}
