// The floor signature as the host computed it before the one walk: a skim of its own over the floor's
// bytes (FloorSignature.swift at 55f0133), kept as the oracle the one walk's signatures must equal, value
// for value (OneWalkTests).
import FloorCore
import FloorRuntime

extension FloorSignature {
    /// The signature as the old skim computed it.
    static func reference(json bytes: UnsafeRawBufferPointer) -> FloorSignature {
        var s = FloorSignature()
        let skim = ReferenceSkim(bytes: bytes)
        let start = skim.whitespace(from: 0)
        guard start < bytes.count else { return s }
        guard bytes[start] == UInt8(ascii: "{") else {
            s.whole = skim.value(from: start).hash
            return s
        }
        var wholeHash = ReferenceSkim.ObjectHash()
        var ownHash = ReferenceSkim.ObjectHash()
        var headerHash: UInt64 = 0
        var marginHash: UInt64 = 0
        var items: [FloorSignature.Item] = []
        skim.members(from: start + 1) { key, valueStart in
            let isItems = skim.is(key, "items") && bytes[valueStart] == UInt8(ascii: "[")
            // The items are walked once: their hashes make the array's, and each one's id is read on the way.
            let (end, value) = isItems ? skim.items(from: valueStart, into: &items) : skim.value(from: valueStart)
            let keyHash = skim.hash(key)
            wholeHash.add(key: keyHash, value: value)
            if skim.is(key, "items") {
                if !isItems { items = [] }
            } else if skim.is(key, "header") {
                headerHash = value
            } else if skim.is(key, "margin") {
                marginHash = value
            } else {
                ownHash.add(key: keyHash, value: value)
            }
            return end
        }
        s.whole = wholeHash.value
        s.own = ownHash.value
        s.header = headerHash
        s.margin = marginHash
        s.items = items
        return s
    }
}

/// Walks JSON that is already known to be valid: no error paths, only where values start and end, and
/// what they hold (`value`).
struct ReferenceSkim {
    let bytes: UnsafeRawBufferPointer

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    func whitespace(from i: Int) -> Int {
        var i = i
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// An object's hash: its members combined in no particular order (a wrapping sum of mixed member
    /// hashes), so that the order its keys were written in does not count.
    struct ObjectHash {
        private var sum: UInt64 = 0
        private var count: UInt64 = 0

        mutating func add(key: UInt64, value: UInt64) {
            var member = ContentHash()
            member.add(key)
            member.add(value)
            sum &+= Self.mix(member.value)
            count += 1
        }

        var value: UInt64 {
            var h = ContentHash()
            h.add(UInt8(ascii: "{"))
            h.add(sum)
            h.add(count)
            return h.value
        }

        /// SplitMix64's finalizer: spreads each member's bits before they are summed.
        static func mix(_ x: UInt64) -> UInt64 {
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The value at `i` (no whitespace before it): the index just after it, and a hash of what it holds:
    /// strings by their decoded text, numbers and literals as written, arrays in order, objects in any
    /// order of keys. Recursion is bounded by the page scanner's depth limit.
    func value(from i: Int) -> (end: Int, hash: UInt64) {
        let c = bytes[i]
        if c == UInt8(ascii: "\"") {
            let (end, escaped) = stringEnd(from: i)
            var h = ContentHash()
            h.add(UInt8(ascii: "s"))
            // The decoded text and its length (so that no two strings run into each other).
            if escaped {
                var decoded = text(at: i)
                decoded.withUTF8 { h.add(raw: UnsafeRawBufferPointer($0)) }
            } else {
                h.add(raw: UnsafeRawBufferPointer(rebasing: bytes[(i + 1)..<(end - 1)]))
            }
            return (end, h.value)
        }
        if c == UInt8(ascii: "[") {
            var h = ContentHash()
            h.add(UInt8(ascii: "["))
            var j = whitespace(from: i + 1)
            guard j < bytes.count, bytes[j] != UInt8(ascii: "]") else { return (j + 1, h.value) }
            while j < bytes.count {
                let (after, element) = value(from: j)
                h.add(element)
                j = whitespace(from: after)
                guard j < bytes.count, bytes[j] == UInt8(ascii: ",") else { break }
                j = whitespace(from: j + 1)
            }
            return (j + 1, h.value)
        }
        if c == UInt8(ascii: "{") {
            var object = ObjectHash()
            let end = members(from: i + 1) { key, valueStart in
                let (end, value) = value(from: valueStart)
                object.add(key: hash(key), value: value)
                return end
            }
            return (end, object.value)
        }
        var h = ContentHash()
        h.add(UInt8(ascii: "n"))
        var j = i
        while j < bytes.count {
            let c = bytes[j]
            if Self.isSpace(c) || c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") { break }
            h.add(c)
            j += 1
        }
        return (j, h.value)
    }

    /// The end of the string at `i` and whether it holds a backslash.
    private func stringEnd(from i: Int) -> (end: Int, escaped: Bool) {
        var j = i + 1
        var escaped = false
        while j < bytes.count {
            let c = bytes[j]
            if c == UInt8(ascii: "\\") {
                escaped = true
                j += 2
                continue
            }
            j += 1
            if c == UInt8(ascii: "\"") { return (j, escaped) }
        }
        return (j, escaped)
    }

    /// The string at `i`, decoded.
    func text(at i: Int) -> String {
        let (end, escaped) = stringEnd(from: i)
        let content = UnsafeRawBufferPointer(rebasing: bytes[(i + 1)..<(end - 1)])
        guard escaped else { return String(decoding: content, as: UTF8.self) }
        return JSONStringContent.decoded(content)
    }

    /// A member's key where it stands (quotes included): read without making a String of it, since a page
    /// has as many keys as values.
    struct Key {
        let start: Int
        let end: Int
        let escaped: Bool
    }

    /// The key's decoded text, hashed (the bytes as they stand when it has no escape).
    func hash(_ key: Key) -> UInt64 {
        var h = ContentHash()
        if key.escaped {
            var decoded = text(at: key.start)
            decoded.withUTF8 { h.add(raw: UnsafeRawBufferPointer($0)) }
        } else {
            h.add(raw: UnsafeRawBufferPointer(rebasing: bytes[(key.start + 1)..<(key.end - 1)]))
        }
        return h.value
    }

    /// Whether the key is `name` (ASCII), escapes decoded.
    func `is`(_ key: Key, _ name: StaticString) -> Bool {
        if key.escaped { return text(at: key.start) == name.description }
        guard key.end - key.start - 2 == name.utf8CodeUnitCount else { return false }
        let literal = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for k in 0..<literal.count where bytes[key.start + 1 + k] != literal[k] { return false }
        return true
    }

    /// Calls `body(key, valueStart)` for each member of the object whose `{` is just before `i`; `body`
    /// returns the index after the value. Returns the index after the object's `}`.
    @discardableResult
    func members(from i: Int, _ body: (Key, Int) -> Int) -> Int {
        var j = whitespace(from: i)
        guard j < bytes.count, bytes[j] != UInt8(ascii: "}") else { return j + 1 }
        while j < bytes.count {
            let (keyEnd, escaped) = stringEnd(from: j)
            let key = Key(start: j, end: keyEnd, escaped: escaped)
            j = whitespace(from: keyEnd) + 1  // past ':'
            j = whitespace(from: body(key, whitespace(from: j)))
            guard j < bytes.count, bytes[j] == UInt8(ascii: ",") else { return j + 1 }
            j = whitespace(from: j + 1)
        }
        return j
    }

    /// The array at `i` (at its `[`): the index after it and its hash, exactly as `value` gives them, and
    /// each element as a floor item: its content hash and its identity (its `id`, a string or an integer
    /// as its text, the last one when the key repeats; else its content).
    func items(from i: Int, into items: inout [FloorSignature.Item]) -> (end: Int, hash: UInt64) {
        items.removeAll(keepingCapacity: true)
        var h = ContentHash()
        h.add(UInt8(ascii: "["))
        var j = whitespace(from: i + 1)
        guard j < bytes.count, bytes[j] != UInt8(ascii: "]") else { return (j + 1, h.value) }
        while j < bytes.count {
            let after: Int
            let content: UInt64
            var id: String?
            if bytes[j] == UInt8(ascii: "{") {
                var object = ObjectHash()
                after = members(from: j + 1) { key, valueStart in
                    let (end, value) = value(from: valueStart)
                    object.add(key: hash(key), value: value)
                    if self.is(key, "id") { id = itemID(valueStart, end) }
                    return end
                }
                content = object.value
            } else {
                (after, content) = value(from: j)
            }
            h.add(content)
            items.append(
                FloorSignature.Item(id: id.map { FloorSignature.idHash($0) } ?? 0, content: content))
            j = whitespace(from: after)
            guard j < bytes.count, bytes[j] == UInt8(ascii: ",") else { break }
            j = whitespace(from: j + 1)
        }
        return (j + 1, h.value)
    }

    /// An item's `id` value between `start` and `end`: a string, or an integer as its text; else nil.
    private func itemID(_ start: Int, _ end: Int) -> String? {
        if bytes[start] == UInt8(ascii: "\"") { return text(at: start) }
        let number = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        let integer = number.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
        }
        return integer ? String(decoding: number, as: UTF8.self) : nil
    }
}
