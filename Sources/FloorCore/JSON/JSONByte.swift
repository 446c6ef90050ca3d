/// The ASCII bytes of JSON's grammar, as constants the optimizer sees through across modules (computed, not
/// stored: a stored `static let` would be a lazy global behind an accessor in every caller).
package enum JSONByte {
    @inlinable package static var quote: UInt8 { 0x22 }
    @inlinable package static var backslash: UInt8 { 0x5C }
    @inlinable package static var slash: UInt8 { 0x2F }
    @inlinable package static var openBrace: UInt8 { 0x7B }
    @inlinable package static var closeBrace: UInt8 { 0x7D }
    @inlinable package static var openBracket: UInt8 { 0x5B }
    @inlinable package static var closeBracket: UInt8 { 0x5D }
    @inlinable package static var comma: UInt8 { 0x2C }
    @inlinable package static var colon: UInt8 { 0x3A }
    @inlinable package static var dot: UInt8 { 0x2E }
    @inlinable package static var minus: UInt8 { 0x2D }
    @inlinable package static var plus: UInt8 { 0x2B }
    @inlinable package static var zero: UInt8 { 0x30 }
    @inlinable package static var nine: UInt8 { 0x39 }
    @inlinable package static var space: UInt8 { 0x20 }
    @inlinable package static var newline: UInt8 { 0x0A }
    @inlinable package static var carriageReturn: UInt8 { 0x0D }
    @inlinable package static var tab: UInt8 { 0x09 }

    @inlinable package static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }

    @inlinable package static func isWhitespace(_ b: UInt8) -> Bool {
        b == space || b == newline || b == carriageReturn || b == tab
    }

    @inlinable package static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20) &- UInt8(ascii: "a") < 6
    }
}
