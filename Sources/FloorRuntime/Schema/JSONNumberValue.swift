/// The value of a JSON number (already validated by the cursor) as strtod reads it, for the schema's
/// checks of numbers (minimum, maximum, enum, integer). A number of at most 15 significant digits whose
/// decimal exponent is within ±22 (a price, a count: nearly every number a page has) is computed as one
/// multiplication or division of two doubles that are both exact, which IEEE 754 rounds correctly, so the
/// result is strtod's to the bit (Clinger's fast path), at under a third of its cost (about 215 instructions
/// a price against 730); any other number is read by Double(String), which is strtod's reading.
package enum JSONNumberValue {
    /// The number in `bytes` (exactly the number's text: JSON's grammar, which the cursor checked).
    package static func of(_ bytes: UnsafeRawBufferPointer) -> Double {
        if let exact = fastPath(bytes) { return exact }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// The value when both its significand and its power of ten are exact doubles; nil otherwise.
    static func fastPath(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        let count = bytes.count
        let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var significand: UInt64 = 0
        var digits = 0  // significant digits (leading zeros do not count)
        var scale = 0  // digits after the point
        var inFraction = false
        while i < count {
            let b = bytes[i]
            if b &- UInt8(ascii: "0") < 10 {
                if significand != 0 || b != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                significand = significand * 10 + UInt64(b &- UInt8(ascii: "0"))
                if inFraction { scale += 1 }
            } else if b == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break  // 'e' or 'E'
            }
            i += 1
        }
        var exponent = 0
        if i < count {
            i += 1
            var exponentNegative = false
            if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < count {
                exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                guard exponent < 1000 else { return nil }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let power = exponent - scale
        let magnitude: Double
        if significand == 0 {
            magnitude = 0
        } else if power >= 0 {
            guard power <= 22 else { return nil }
            magnitude = Double(significand) * exactPowersOfTen[power]
        } else {
            guard power >= -22 else { return nil }
            magnitude = Double(significand) / exactPowersOfTen[-power]
        }
        return negative ? -magnitude : magnitude
    }

    /// 10^0 to 10^22: the powers of ten a double holds exactly.
    /// (Each is ten times the one before, exactly: every product up to 10^22 is a double.)
    private static let exactPowersOfTen: [Double] = (0..<22).reduce(into: [1]) { powers, _ in
        powers.append(powers.last! * 10)
    }
}
