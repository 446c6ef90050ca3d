import FloorCore
import Testing

/// JSONWriter writes a layout's fractional numbers (156.5, 42.25) digit by digit; what it writes must be
/// exactly Swift's shortest round-trip form, which it wrote before (String(value)).
struct JSONNumberTests {
    static func written(_ value: Double) -> String {
        var writer = JSONWriter()
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func swift(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    @Test func integersAreTheirDecimalDigits() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        for value in values {
            var writer = JSONWriter()
            writer.number(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    /// Digits go two at a time: every count of digits, odd and even, and every pair in every place.
    @Test func everyIntegerUpToAHundredThousandAndRandomOnesAreTheirDigits() {
        var generator = SystemRandomNumberGenerator()
        let values =
            Array(-100_000...100_000) + (0..<20_000).map { _ in Int.random(in: .min ... .max, using: &generator) }
        let wrong = values.filter { value in
            var writer = JSONWriter()
            writer.number(value)
            return String(decoding: writer.bytes, as: UTF8.self) != String(value)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func everyThousandthUpToAHundredIsSwiftsForm() {
        var wrong: [Double] = []
        for k in -100_000...100_000 {
            let value = Double(k) / 1000
            if Self.written(value) != Self.swift(value) { wrong.append(value) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func sumsAndLargeValuesAreSwiftsForm() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0.1 + 0.2, 1.0 / 3, 2.0 / 3, 12.0004, 999_999_999_999.5, 1e12 + 0.5, 123_456_789_012.5, -0.5, 0.001,
            -0.001, 1e-7, 156.5, 42.25, 8 + 175.5 + 8, .nan, .infinity,
        ]
        for _ in 0..<20_000 {
            // Running sums of fractional heights, as a page's y values are.
            values.append(Double(Int.random(in: 0...4_000_000, using: &generator)) * 0.25 + 0.125)
            values.append(
                Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &generator)) / 1000)
            values.append(Double.random(in: -1e6...1e6, using: &generator))
        }
        let wrong = values.filter { Self.written($0) != ($0.isFinite ? Self.swift($0) : "null") }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}
