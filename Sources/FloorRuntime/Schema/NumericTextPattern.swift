/// FloorKit's pattern for a number written as text ("199", "¥1,299.00": a price, which every product of a
/// feed is checked against): spaces, an optional "¥" or "￥", spaces, 1 to 12 digits with at most one ","
/// between two, an optional fraction, spaces, the end. Recognised by its exact text and matched by hand, as
/// ICU matches it but without a regular-expression engine (ICU took 5,600 instructions a price: 6 % of
/// rendering the benchmark page). Any other pattern text, or a FloorKit that writes the rule differently,
/// stays ICU's: only slower.
package enum NumericTextPattern {
    package static let text = #"^ *[¥￥]? *[0-9](,?[0-9]){0,11}(\.[0-9]+)? *(?![\s\S])"#

    /// Whether `utf8` (the whole text) is such a number. Deterministic: no part of the rule can take
    /// bytes another part could have taken, so one pass decides what ICU's backtracking decides.
    package static func matches(_ utf8: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        func at(_ k: Int) -> UInt8 { k < utf8.count ? utf8[k] : 0 }
        func digit(_ k: Int) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(at(k)) }
        func spaces() { while at(i) == UInt8(ascii: " ") { i += 1 } }
        spaces()
        if at(i) == 0xC2 && at(i + 1) == 0xA5 {  // ¥
            i += 2
        } else if at(i) == 0xEF && at(i + 1) == 0xBF && at(i + 2) == 0xA5 {  // ￥
            i += 3
        }
        spaces()
        guard digit(i) else { return false }
        i += 1
        var more = 0  // digits after the first, each perhaps after one ","
        while more < 12 {
            if digit(i) {
                i += 1
            } else if at(i) == UInt8(ascii: ","), digit(i + 1) {
                i += 2
            } else {
                break
            }
            more += 1
        }
        guard more <= 11 else { return false }
        if at(i) == UInt8(ascii: "."), digit(i + 1) {
            i += 1
            while digit(i) { i += 1 }
        }
        spaces()
        return i == utf8.count
    }
}
