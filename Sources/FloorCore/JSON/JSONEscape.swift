/// What a JSON string's escapes stand for, for the parsers that resolve them (`JSONValue`, FloorRuntime's
/// `SchemaValue`, `JSONStringContent`): one table of the single-letter escapes, and a `\u` escape's four
/// digits as the first two read them. What a parser does with anything else (refuse it, or keep the byte) is
/// its own.
package enum JSONEscape {
    /// The scalar the single-letter escape `letter` (the byte after the backslash) stands for: `\"`, `\\`,
    /// `\/`, `\b`, `\f`, `\n`, `\r`, `\t`; nil for any other byte (`u` included).
    package static func scalar(_ letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): Unicode.Scalar(letter)
        case UInt8(ascii: "b"): "\u{8}"
        case UInt8(ascii: "f"): "\u{c}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }

    /// The four bytes at `at` read as a hexadecimal number (`UInt32(_:radix: 16)`), nil when fewer than four
    /// are left or they do not read.
    package static func hex4(_ bytes: [UInt8], at: Int) -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        return UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
    }
}
