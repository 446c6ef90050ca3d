import Foundation

// A prototype of the SDK decoder proposed in BENCHMARKS.md ("End to end"), measured against JSONDecoder by
// main.swift: Decodable straight from a floor's bytes, which the host has already validated as JSON. No
// intermediate tree: a keyed container indexes its object's keys once (key byte range -> value offset);
// values are decoded from the bytes when asked for; coding paths are built only for errors.
//
// Not production code: keys are compared without unescaping, numbers with a fraction or exponent go
// through Double(String). Assumes valid JSON (the host's PageScanner guarantees it); malformed input
// throws, never crashes.

struct ByteJSONDecoder {
    func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        let reader = Reader(bytes)
        return try T(from: Impl(reader: reader, offset: reader.skipSpace(0), codingPath: []))
    }
}

struct ByteKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
}

final class Reader {
    let base: UnsafePointer<UInt8>
    let count: Int
    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        count = bytes.count
    }

    @inline(__always) func byte(_ i: Int) -> UInt8 { i < count ? base[i] : 0 }

    func skipSpace(_ i: Int) -> Int {
        var i = i
        while i < count, base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x0D || base[i] == 0x09 { i += 1 }
        return i
    }

    /// Offset just past the value starting at `i`.
    func skipValue(_ i: Int) throws -> Int {
        switch byte(i) {
        case UInt8(ascii: "\""): return try skipString(i)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // Only quotes and brackets matter; inside strings only quotes and backslashes.
            var depth = 0
            var j = i
            let end = count
            while j < end {
                let b = base[j]
                if b == UInt8(ascii: "\"") {
                    j += 1
                    while j < end {
                        let c = base[j]
                        if c == UInt8(ascii: "\\") { j += 2; continue }
                        if c == UInt8(ascii: "\"") { break }
                        j += 1
                    }
                } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    depth += 1
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unterminated container"))
        default:
            var j = i
            while j < count {
                let b = base[j]
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { break }
                j += 1
            }
            return j
        }
    }

    func skipString(_ i: Int) throws -> Int {
        var j = i + 1
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\\") { j += 2; continue }
            if b == UInt8(ascii: "\"") { return j + 1 }
            j += 1
        }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unterminated string"))
    }

    func string(at i: Int) throws -> String? {
        guard byte(i) == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var j = start
        while j < count, base[j] != UInt8(ascii: "\""), base[j] != UInt8(ascii: "\\") { j += 1 }
        if byte(j) == UInt8(ascii: "\"") {
            return String(decoding: UnsafeBufferPointer(start: base + start, count: j - start), as: UTF8.self)
        }
        // Escapes: slow path.
        var out: [UInt8] = Array(UnsafeBufferPointer(start: base + start, count: j - start))
        while j < count {
            let b = base[j]
            if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            if b != UInt8(ascii: "\\") { out.append(b); j += 1; continue }
            let e = byte(j + 1)
            j += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = hex4(j)
                j += 4
                if (0xD800..<0xDC00).contains(scalar), byte(j) == UInt8(ascii: "\\"), byte(j + 1) == UInt8(ascii: "u") {
                    let low = hex4(j + 2)
                    if (0xDC00..<0xE000).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00); j += 6 }
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default: out.append(e)
            }
        }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unterminated string"))
    }

    private func hex4(_ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = byte(i + k)
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return 0xFFFD
            }
            v = v << 4 | d
        }
        return v
    }

    func number(at i: Int) -> Double? {
        let end = (try? skipValue(i)) ?? i
        guard end > i else { return nil }
        let c = base[i]
        guard c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) else { return nil }
        // Integers without fraction or exponent: exact, no allocation.
        var value: Int64 = 0
        var j = i
        let negative = c == UInt8(ascii: "-")
        if negative { j += 1 }
        var integral = true
        while j < end {
            let d = base[j]
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9"), value < 100_000_000_000_000 else { integral = false; break }
            value = value * 10 + Int64(d - UInt8(ascii: "0"))
            j += 1
        }
        if integral { return Double(negative ? -value : value) }
        return Double(String(decoding: UnsafeBufferPointer(start: base + i, count: end - i), as: UTF8.self))
    }

    func keyEquals(_ range: Range<Int>, _ key: String) -> Bool {
        var key = key
        return key.withUTF8 { k in
            k.count == range.count && memcmp(k.baseAddress!, base + range.lowerBound, k.count) == 0
        }
    }
}


struct Impl: Decoder {
    let reader: Reader
    let offset: Int
    /// The path is built only when asked for (errors): the parent's path and this value's key.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(reader: Reader, offset: Int, codingPath: [any CodingKey]) {
        self.reader = reader; self.offset = offset; parentPath = codingPath; key = nil
    }
    init(reader: Reader, offset: Int, parent: [any CodingKey], key: any CodingKey) {
        self.reader = reader; self.offset = offset; parentPath = parent; self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard reader.byte(offset) == UInt8(ascii: "{") else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object"))
        }
        return KeyedDecodingContainer(Keyed<Key>(reader: reader, entries: try index(), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard reader.byte(offset) == UInt8(ascii: "[") else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array"))
        }
        return Unkeyed(reader: reader, next: reader.skipSpace(offset + 1), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// The object's keys (raw byte ranges, no escapes expected in keys we look up) and value offsets.
    private func index() throws -> [(key: Range<Int>, value: Int)] {
        var entries: [(key: Range<Int>, value: Int)] = []
        entries.reserveCapacity(8)
        var i = reader.skipSpace(offset + 1)
        if reader.byte(i) == UInt8(ascii: "}") { return entries }
        while i < reader.count {
            let keyEnd = try reader.skipString(i)
            let colon = reader.skipSpace(keyEnd)
            let value = reader.skipSpace(colon + 1)
            entries.append(((i + 1)..<(keyEnd - 1), value))
            i = reader.skipSpace(try reader.skipValue(value))
            if reader.byte(i) == UInt8(ascii: ",") { i = reader.skipSpace(i + 1); continue }
            break
        }
        return entries
    }
}

struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: Reader
    let entries: [(key: Range<Int>, value: Int)]
    var codingPath: [any CodingKey]
    var allKeys: [Key] {
        entries.compactMap { Key(stringValue: String(decoding: UnsafeBufferPointer(start: reader.base + $0.key.lowerBound, count: $0.key.count), as: UTF8.self)) }
    }

    private func find(_ key: Key) -> Int? {
        // Last one wins, like the host's scanner.
        for entry in entries.reversed() where reader.keyEquals(entry.key, key.stringValue) { return entry.value }
        return nil
    }
    private func value(_ key: Key) throws -> Int {
        guard let v = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return v
    }
    private func decoder(_ key: Key) throws -> Impl { Impl(reader: reader, offset: try value(key), parent: codingPath, key: key) }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { reader.byte(try value(key)) == UInt8(ascii: "n") }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Single(decoder: decoder(key)).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Single(decoder: decoder(key)).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Single(decoder: decoder(key)).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try Single(decoder: decoder(key)).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Single(decoder: decoder(key)).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: decoder(key)) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let v = find(key), reader.byte(v) != UInt8(ascii: "n") else { return nil }
        return try Single(decoder: Impl(reader: reader, offset: v, parent: codingPath, key: key)).decode(type)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let v = find(key), reader.byte(v) != UInt8(ascii: "n") else { return nil }
        return try T(from: Impl(reader: reader, offset: v, parent: codingPath, key: key))
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { Impl(reader: reader, offset: 0, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
}

struct Unkeyed: UnkeyedDecodingContainer {
    let reader: Reader
    var next: Int
    var codingPath: [any CodingKey]
    var count: Int? { nil }
    var currentIndex = 0
    var isAtEnd: Bool { reader.byte(next) == UInt8(ascii: "]") || next >= reader.count }

    init(reader: Reader, next: Int, codingPath: [any CodingKey]) {
        self.reader = reader
        self.next = next
        self.codingPath = codingPath
    }

    private mutating func advance() throws -> Impl {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "array is at its end"))
        }
        let here = Impl(reader: reader, offset: next, parent: codingPath, key: ByteKey(intValue: currentIndex))
        var j = reader.skipSpace(try reader.skipValue(next))
        if reader.byte(j) == UInt8(ascii: ",") { j = reader.skipSpace(j + 1) }
        next = j
        currentIndex += 1
        return here
    }

    mutating func decodeNil() throws -> Bool {
        if reader.byte(next) == UInt8(ascii: "n") { _ = try advance(); return true }
        return false
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: advance()) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try advance().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try advance().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try advance() }
}

struct Single: SingleValueDecodingContainer {
    let decoder: Impl
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var reader: Reader { decoder.reader }
    private var offset: Int { decoder.offset }

    private func mismatch<T>(_ type: T.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "type mismatch"))
    }

    func decodeNil() -> Bool { reader.byte(offset) == UInt8(ascii: "n") }
    func decode(_ type: Bool.Type) throws -> Bool {
        switch reader.byte(offset) {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw mismatch(type)
        }
    }
    func decode(_ type: String.Type) throws -> String {
        guard let s = try reader.string(at: offset) else { throw mismatch(type) }
        return s
    }
    func decode(_ type: Double.Type) throws -> Double {
        guard let d = reader.number(at: offset) else { throw mismatch(type) }
        return d
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int {
        let d = try decode(Double.self)
        guard let i = Int(exactly: d) else { throw mismatch(type) }
        return i
    }
    func decode(_ type: Int8.Type) throws -> Int8 { Int8(try decode(Int.self)) }
    func decode(_ type: Int16.Type) throws -> Int16 { Int16(try decode(Int.self)) }
    func decode(_ type: Int32.Type) throws -> Int32 { Int32(try decode(Int.self)) }
    func decode(_ type: Int64.Type) throws -> Int64 { Int64(try decode(Int.self)) }
    func decode(_ type: UInt.Type) throws -> UInt { UInt(try decode(Int.self)) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(try decode(Int.self)) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(try decode(Int.self)) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(try decode(Int.self)) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(try decode(Int.self)) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
