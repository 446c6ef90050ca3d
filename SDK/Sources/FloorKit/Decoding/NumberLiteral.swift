/// A JSON number literal's value (the tape has checked its grammar), read without allocating: up to 19
/// significant digits and a power of ten within ±22 (any price, count or size a page holds) is one exact
/// multiplication or division, so correctly rounded (Clinger's fast path). Others go to the standard
/// library's parser; under Embedded Swift, which has none without libc, to a product of powers of ten that
/// may be one unit in the last place off.
enum NumberLiteral {
    static func value(_ literal: UnsafeRawBufferPointer) -> Double {
        var i = 0
        let count = literal.count
        var negative = false
        if i < count, literal[i] == 0x2D {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        func digit(_ b: UInt8) -> UInt64? { b >= 0x30 && b <= 0x39 ? UInt64(b - 0x30) : nil }
        while i < count, let d = digit(literal[i]) {
            if digits < 19 {
                mantissa = mantissa * 10 + d
                if mantissa > 0 { digits += 1 }
            } else {
                exponent += 1
                if d != 0 { exact = false }
            }
            i += 1
        }
        if i < count, literal[i] == 0x2E {
            i += 1
            while i < count, let d = digit(literal[i]) {
                if digits < 19 {
                    mantissa = mantissa * 10 + d
                    if mantissa > 0 { digits += 1 }
                    exponent -= 1
                } else if d != 0 {
                    exact = false
                }
                i += 1
            }
        }
        if i < count, literal[i] == 0x65 || literal[i] == 0x45 {
            i += 1
            var sign = 1
            if i < count, literal[i] == 0x2B || literal[i] == 0x2D {
                if literal[i] == 0x2D { sign = -1 }
                i += 1
            }
            var written = 0
            while i < count, let d = digit(literal[i]) {
                if written < 100_000 { written = written * 10 + Int(d) }
                i += 1
            }
            exponent += sign * written
        }
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if exact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / powers[-exponent] : value * powers[exponent]
        } else {
            #if hasFeature(Embedded)
            value = Double(mantissa)
            var left = exponent
            while left > 0, value.isFinite {
                value *= powers[min(left, 22)]
                left -= min(left, 22)
            }
            while left < 0, value > 0 {
                value /= powers[min(-left, 22)]
                left += min(-left, 22)
            }
            #else
            value = Double(String(decoding: literal, as: UTF8.self)) ?? .infinity
            return value
            #endif
        }
        return negative ? -value : value
    }

    /// 10^0 to 10^22: every one exact in a Double.
    static let powers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}
