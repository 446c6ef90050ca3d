/// Derives a JSON Schema from a `Decodable` type by running its `init(from:)` against a decoder that
/// answers every request with a placeholder and notes what was asked: each key decoded with `decode` is a
/// required field, with `decodeIfPresent` an optional one; the Swift type asked for gives the JSON type
/// (String: string, Int: integer, Double: number, Bool: boolean, arrays: array with one element probed for
/// `items`, nested Decodable types: objects, probed the same way). Placeholders are "x", 1 and false, and
/// arrays have one element, so an `init(from:)` that checks ranges (1 to 10) or non-empty text still
/// passes. Fields a custom decoder reads only after a value it cannot get from a placeholder are not seen:
/// such a type conforms to JSONSchemaDescribed, or the model states its `schema`.
/// Runs once per floor type, when the plugin is loaded; pure.
enum SchemaProbe {
    /// The schema of `type`; what was noted before an error stands (the error itself is dropped).
    static func schema<T: Decodable>(of type: T.Type) -> JSONSchema {
        let root = Node()
        _ = try? probe(type, into: root)
        return root.schema
    }

    /// Notes `type`'s shape in `node` and returns a placeholder value of it.
    static func probe<T: Decodable>(_ type: T.Type, into node: Node) throws -> T {
        if let described = T.self as? any JSONSchemaDescribed.Type {
            node.fixed = described.jsonSchema
            return try T(from: Probe(node: Node(), codingPath: []))
        }
        return try T(from: Probe(node: node, codingPath: []))
    }

    /// One value's notes; becomes a JSONSchema once probing is done.
    final class Node {
        var types: [String] = []
        var fields: [(name: String, node: Node, required: Bool)] = []
        var element: Node?
        var isObject = false
        /// A JSONSchemaDescribed type's own schema, used as is.
        var fixed: JSONSchema?

        @discardableResult func add(_ type: String) -> Node {
            if !types.contains(type) { types.append(type) }
            return self
        }

        /// The node of field `name` (created on first use). Required once any read of it required it.
        func field(_ name: String, required: Bool) -> Node {
            isObject = true
            if let i = fields.firstIndex(where: { $0.name == name }) {
                if required { fields[i].required = true }
                return fields[i].node
            }
            let node = Node()
            fields.append((name, node, required))
            return node
        }

        var schema: JSONSchema {
            if let fixed { return fixed }
            var types = self.types
            if isObject, !types.contains("object") { types.insert("object", at: 0) }
            if element != nil, !types.contains("array") { types.append("array") }
            if types.contains("number") { types.removeAll { $0 == "integer" } }
            return JSONSchema(
                types: types, properties: fields.map { ($0.name, $0.node.schema) },
                required: fields.filter(\.required).map(\.name),
                additionalProperties: isObject ? false : nil, items: element?.schema)
        }
    }

    struct Probe: Decoder {
        let node: Node
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            node.add("object")
            node.isObject = true
            return KeyedDecodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            node.add("array")
            if node.element == nil { node.element = Node() }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool {
            _ = node.field(key.stringValue, required: false)
            return false
        }
        func decodeNil(forKey key: Key) throws -> Bool {
            _ = node.field(key.stringValue, required: false)
            return false
        }
        func decode(_: Bool.Type, forKey key: Key) throws -> Bool {
            node.field(key.stringValue, required: true).add("boolean")
            return false
        }
        func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? {
            node.field(key.stringValue, required: false).add("boolean")
            return nil
        }
        func decode(_: String.Type, forKey key: Key) throws -> String {
            node.field(key.stringValue, required: true).add("string")
            return "x"
        }
        func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? {
            node.field(key.stringValue, required: false).add("string")
            return nil
        }
        func decode(_: Double.Type, forKey key: Key) throws -> Double {
            node.field(key.stringValue, required: true).add("number")
            return 1
        }
        func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? {
            node.field(key.stringValue, required: false).add("number")
            return nil
        }
        func decode(_: Float.Type, forKey key: Key) throws -> Float {
            node.field(key.stringValue, required: true).add("number")
            return 1
        }
        func decodeIfPresent(_: Float.Type, forKey key: Key) throws -> Float? {
            node.field(key.stringValue, required: false).add("number")
            return nil
        }
        func decode(_: Int.Type, forKey key: Key) throws -> Int {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: Int8.Type, forKey key: Key) throws -> Int8 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: Int8.Type, forKey key: Key) throws -> Int8? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: Int16.Type, forKey key: Key) throws -> Int16 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: Int16.Type, forKey key: Key) throws -> Int16? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: Int32.Type, forKey key: Key) throws -> Int32 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: Int32.Type, forKey key: Key) throws -> Int32? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: Int64.Type, forKey key: Key) throws -> Int64 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: Int64.Type, forKey key: Key) throws -> Int64? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: UInt.Type, forKey key: Key) throws -> UInt {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: UInt.Type, forKey key: Key) throws -> UInt? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: UInt8.Type, forKey key: Key) throws -> UInt8? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: UInt16.Type, forKey key: Key) throws -> UInt16? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: UInt32.Type, forKey key: Key) throws -> UInt32? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 {
            node.field(key.stringValue, required: true).add("integer")
            return 1
        }
        func decodeIfPresent(_: UInt64.Type, forKey key: Key) throws -> UInt64? {
            node.field(key.stringValue, required: false).add("integer")
            return nil
        }
        func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
            try probe(T.self, into: node.field(key.stringValue, required: true))
        }
        func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
            // The type is probed (for its shape), the value not used: an absent optional field.
            _ = try? probe(T.self, into: node.field(key.stringValue, required: false))
            return nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try Probe(node: node.field(key.stringValue, required: true), codingPath: codingPath + [key]).container(
                keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Probe(node: node.field(key.stringValue, required: true), codingPath: codingPath + [key])
                .unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { Probe(node: node, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            Probe(node: node.field(key.stringValue, required: true), codingPath: codingPath + [key])
        }
    }

    /// An array with one element: every element read goes to the array's one `items` node.
    struct Unkeyed: UnkeyedDecodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex > 0 }
        init(node: Node, codingPath: [any CodingKey]) {
            self.node = node
            self.codingPath = codingPath
        }
        mutating func element() -> Node {
            currentIndex += 1
            return node.element!
        }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode(_: Bool.Type) throws -> Bool {
            element().add("boolean")
            return false
        }
        mutating func decodeIfPresent(_: Bool.Type) throws -> Bool? {
            element().add("boolean")
            return nil
        }
        mutating func decode(_: String.Type) throws -> String {
            element().add("string")
            return "x"
        }
        mutating func decodeIfPresent(_: String.Type) throws -> String? {
            element().add("string")
            return nil
        }
        mutating func decode(_: Double.Type) throws -> Double {
            element().add("number")
            return 1
        }
        mutating func decodeIfPresent(_: Double.Type) throws -> Double? {
            element().add("number")
            return nil
        }
        mutating func decode(_: Float.Type) throws -> Float {
            element().add("number")
            return 1
        }
        mutating func decodeIfPresent(_: Float.Type) throws -> Float? {
            element().add("number")
            return nil
        }
        mutating func decode(_: Int.Type) throws -> Int {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: Int.Type) throws -> Int? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: Int8.Type) throws -> Int8 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: Int8.Type) throws -> Int8? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: Int16.Type) throws -> Int16 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: Int16.Type) throws -> Int16? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: Int32.Type) throws -> Int32 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: Int32.Type) throws -> Int32? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: Int64.Type) throws -> Int64 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: Int64.Type) throws -> Int64? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: UInt.Type) throws -> UInt {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: UInt.Type) throws -> UInt? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: UInt8.Type) throws -> UInt8 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: UInt8.Type) throws -> UInt8? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: UInt16.Type) throws -> UInt16 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: UInt16.Type) throws -> UInt16? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: UInt32.Type) throws -> UInt32 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: UInt32.Type) throws -> UInt32? {
            element().add("integer")
            return nil
        }
        mutating func decode(_: UInt64.Type) throws -> UInt64 {
            element().add("integer")
            return 1
        }
        mutating func decodeIfPresent(_: UInt64.Type) throws -> UInt64? {
            element().add("integer")
            return nil
        }
        mutating func decode<T: Decodable>(_: T.Type) throws -> T { try probe(T.self, into: element()) }
        mutating func decodeIfPresent<T: Decodable>(_: T.Type) throws -> T? {
            _ = try? probe(T.self, into: element())
            return nil
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try Probe(node: element(), codingPath: codingPath).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try Probe(node: element(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { Probe(node: element(), codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        func decodeNil() -> Bool { false }
        func decode(_: Bool.Type) throws -> Bool {
            node.add("boolean")
            return false
        }
        func decode(_: String.Type) throws -> String {
            node.add("string")
            return "x"
        }
        func decode(_: Double.Type) throws -> Double {
            node.add("number")
            return 1
        }
        func decode(_: Float.Type) throws -> Float {
            node.add("number")
            return 1
        }
        func decode(_: Int.Type) throws -> Int {
            node.add("integer")
            return 1
        }
        func decode(_: Int8.Type) throws -> Int8 {
            node.add("integer")
            return 1
        }
        func decode(_: Int16.Type) throws -> Int16 {
            node.add("integer")
            return 1
        }
        func decode(_: Int32.Type) throws -> Int32 {
            node.add("integer")
            return 1
        }
        func decode(_: Int64.Type) throws -> Int64 {
            node.add("integer")
            return 1
        }
        func decode(_: UInt.Type) throws -> UInt {
            node.add("integer")
            return 1
        }
        func decode(_: UInt8.Type) throws -> UInt8 {
            node.add("integer")
            return 1
        }
        func decode(_: UInt16.Type) throws -> UInt16 {
            node.add("integer")
            return 1
        }
        func decode(_: UInt32.Type) throws -> UInt32 {
            node.add("integer")
            return 1
        }
        func decode(_: UInt64.Type) throws -> UInt64 {
            node.add("integer")
            return 1
        }
        func decode<T: Decodable>(_: T.Type) throws -> T { try probe(T.self, into: node) }
    }
}
