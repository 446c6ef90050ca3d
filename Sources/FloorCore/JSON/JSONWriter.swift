import HostContract

/// A minimal streaming JSON writer into a byte buffer: the output of a 40,000-row page is megabytes, so
/// it is written directly rather than built as a tree first. An object's members are written with their commas by
/// `object(_:)` (JSONMembers.swift); elsewhere callers write the commas themselves.
///
/// Performance (Scripts/bench, end-to-end figure): each call appends in bulk (no per-byte loop over a string
/// that needs no escaping; numbers formatted in place, not through a String), and a hot loop's row is one
/// `record(upTo:_:)`: its bytes stored straight into capacity reserved once (JSONRecord).
public struct JSONWriter: Sendable {
    @usableFromInline var storage: [UInt8] = []

    /// What has been written.
    @inlinable public var bytes: [UInt8] { storage }

    @inlinable public init(capacity: Int = 4096) { storage.reserveCapacity(capacity) }

    /// Empties the buffer and keeps its capacity: after a chunk of output was handed on.
    @inlinable public mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    /// `[{level, message, file?, plugin?, path?, line?, column?, offset?, consequence?, count?, paths?}, ...]`:
    /// diagnostics as every json output lists them; a group (Diagnostic.grouped) has `count` and `paths`.
    /// `withAbout`: each with its `about` too (what a check shard hands its parent, which groups them).
    public mutating func diagnostics(_ list: [Diagnostic], withAbout: Bool = false) {
        raw("[")
        for (i, d) in list.enumerated() {
            if i > 0 { raw(",") }
            object { o in
                o.member("level", d.level.rawValue)
                o.member("message", d.message)
                if let file = d.file { o.member("file", file) }
                if let plugin = d.plugin { o.member("plugin", plugin) }
                if let path = d.path { o.member("path", path) }
                if let position = d.position {
                    o.member("line", position.line)
                    o.member("column", position.column)
                    o.member("offset", position.offset)
                }
                if let consequence = d.consequence { o.member("consequence", consequence.rawValue) }
                if withAbout, let about = d.about { o.member("about", about) }
                if d.count > 1 {
                    o.member("count", d.count)
                    o.array("paths", d.paths) { path, out in out.string(path) }
                }
            }
        }
        raw("]")
    }

    @inlinable
    public mutating func raw(_ s: StaticString) {
        if s.utf8CodeUnitCount == 1 {
            storage.append(s.utf8Start.pointee)
        } else {
            storage.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
    }

    /// `text`, which the caller guarantees is one JSON value already written by a JSONWriter (so escaped).
    public mutating func value(_ text: String) {
        storage.append(contentsOf: text.utf8)
    }

    @inlinable
    public mutating func raw(_ other: JSONWriter) {
        storage.append(contentsOf: other.storage)
    }

    @inlinable
    public mutating func key(_ name: StaticString) {
        storage.append(UInt8(ascii: "\""))
        raw(name)
        storage.append(UInt8(ascii: "\""))
        storage.append(UInt8(ascii: ":"))
    }

    /// Escapes `"`, `\` and every character ControlCharacters calls unsafe (C0, DEL, C1, bidi controls)
    /// as JSON escapes, so the output is safe to print to a terminal.
    public mutating func string(_ s: String) {
        storage.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Copy runs of bytes that need no escape in one append each. Unsafe scalars at or above U+0080
            // start with 0xC2 (C1) or 0xE2 (bidi controls); only those lead bytes are decoded.
            var start = 0
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                var length = 0
                var scalar: Unicode.Scalar?
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7f {
                    length = 1
                } else if byte == 0xc2 || byte == 0xe2 {
                    let width = byte == 0xc2 ? 2 : 3
                    if i + width <= utf8.count {
                        var value = UInt32(byte & (width == 2 ? 0x1f : 0x0f))
                        for k in 1..<width { value = value << 6 | UInt32(utf8[i + k] & 0x3f) }
                        if let decoded = Unicode.Scalar(value), ControlCharacters.isUnsafe(decoded) {
                            (length, scalar) = (width, decoded)
                        }
                    }
                }
                guard length > 0 else {
                    i += 1
                    continue
                }
                if start < i { storage.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                if let scalar {
                    storage.append(contentsOf: ControlCharacters.escape(scalar).utf8)
                } else {
                    escape(byte)
                }
                i += length
                start = i
            }
            if start < utf8.count { storage.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        storage.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            storage.append(hex.utf8Start[Int(byte >> 4)])
            storage.append(hex.utf8Start[Int(byte & 0xf)])
        }
    }

    @inlinable
    public mutating func number(_ value: Int) {
        record(upTo: JSONRecord.maxNumberBytes) { $0.number(value) }
    }

    /// Integral values print without a fraction ("96", not "96.0"); others in Swift's shortest round-trip form.
    @inlinable
    public mutating func number(_ value: Double) {
        record(upTo: JSONRecord.maxNumberBytes) { $0.number(value) }
    }

    /// Reserves `maxBytes` and lets `body` store at most that many bytes straight into them (JSONRecord's
    /// contract): a hot loop's row in one reservation.
    @inlinable
    public mutating func record(upTo maxBytes: Int, _ body: (inout JSONRecord) -> Void) {
        storage.append(addingCapacity: maxBytes) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var record = JSONRecord(buffer.baseAddress! + initialized, capacity: buffer.count - initialized)
                body(&record)
                initialized += record.count
            }
        }
    }

    public mutating func optional(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }
}
