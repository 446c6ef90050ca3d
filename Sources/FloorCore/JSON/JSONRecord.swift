/// Bytes stored straight into memory a JSONWriter reserved for them (`JSONWriter.record(upTo:_:)`): a hot
/// loop's row (a json render's 43,000 rows) is one reservation and plain stores, not twenty array appends
/// with their capacity and uniqueness checks each.
///
/// Contract: the caller writes at most the `upTo` bytes it reserved (checked: a record past its room traps
/// rather than writes out of bounds), and nothing that needs escaping: keys, punctuation, numbers and text a
/// JSONWriter escaped before (`raw(_: [UInt8])`).
public struct JSONRecord: ~Copyable {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written so far.
    @usableFromInline var written = 0
    public var count: Int { written }

    @inlinable init(_ start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// The room for `n` more bytes, or a trap: a record is never written past what was reserved.
    @inlinable mutating func claim(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(n <= capacity &- written, "a JSON record wrote past the bytes it reserved")
        defer { written &+= n }
        return start + written
    }

    @inlinable public mutating func raw(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        claim(n).update(from: s.utf8Start, count: n)
    }

    /// Bytes already valid JSON (an escaped string, a literal).
    @inlinable public mutating func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            claim(b.count).update(from: base, count: b.count)
        }
    }

    @inlinable public mutating func byte(_ b: UInt8) { claim(1).pointee = b }

    /// Decimal digits (at most 20 bytes: Int.min), two at a time from `digitPairs` (a json render writes four
    /// numbers a row, offsets up to 7 digits: one division a digit was 18 M instructions of 43,000 rows).
    @inlinable public mutating func number(_ value: Int) {
        var magnitude = value.magnitude
        var digits = 1
        var bound: UInt = 10
        while digits < 20 && magnitude >= bound {
            digits &+= 1
            bound = bound &* 10
        }
        let sign = value < 0 ? 1 : 0
        let out = claim(digits &+ sign)
        if sign == 1 { out.pointee = UInt8(ascii: "-") }
        let pairs = Self.digitPairs.utf8Start
        var i = digits &+ sign
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            i &-= 2
            out[i] = pairs[pair]
            out[i &+ 1] = pairs[pair &+ 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            out[i &- 2] = pairs[pair]
            out[i &- 1] = pairs[pair &+ 1]
        } else {
            out[i &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
    }

    /// "00" to "99", end to end: a number's digits are copied two at a time.
    @inlinable static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Integral values print without a fraction ("96", not "96.0"); others in Swift's shortest round-trip
    /// form (at most 24 bytes, "-2.2250738585072014e-308"); not finite: null.
    @inlinable public mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            number(Int(value))
        } else if let thousandths = Self.thousandths(value) {
            // A layout's y and heights (156.5, 42.25): digits in place, no String (Swift's own form, since
            // the decimal is exact to the double and below 1e12 no shorter one reaches it).
            if thousandths < 0 { byte(UInt8(ascii: "-")) }
            number(Int(thousandths.magnitude / 1000))
            var fraction = Int(thousandths.magnitude % 1000)
            byte(UInt8(ascii: "."))
            var divisor = 100
            while fraction > 0 {
                byte(UInt8(ascii: "0") &+ UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        } else if value.isFinite {
            var text = String(value)
            text.withUTF8 { utf8 in claim(utf8.count).update(from: utf8.baseAddress!, count: utf8.count) }
        } else {
            raw("null")
        }
    }

    /// `value` x 1000 when that is a whole number whose decimal (a fraction of at most three digits) is the
    /// double itself, for a magnitude below 1e12: then that decimal, trailing zeros cut, is the shortest
    /// round-trip form, since no other decimal of three places or fewer is within an ulp (at most 2^-13) of it.
    @inlinable static func thousandths(_ value: Double) -> Int64? {
        guard value.magnitude < 1e12, value != value.rounded() else { return nil }
        let scaled = (value * 1000).rounded()
        guard Double(Int64(scaled)) / 1000 == value else { return nil }
        return Int64(scaled)
    }

    /// The most bytes `number(_: Int)` or `number(_: Double)` writes.
    public static let maxNumberBytes = 24
}
