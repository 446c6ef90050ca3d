/// The engine's working memory for one layout, kept between calls so that laying out a text allocates
/// nothing but its line strings: the text as UTF-16 units (what HarfBuzz and ICU take), where each unit
/// starts in the UTF-8 (so a line's text is cut from the bytes it came from), and the advances' running
/// sums. Used under the engine's lock.
struct LayoutScratch {
    /// units[0..<n] of the text last transcoded (the array may be longer).
    private(set) var units: [UInt16] = []
    /// utf8Offset[i]: the byte where unit i starts; utf8Offset[n] is the byte count.
    private var utf8Offset: [Int32] = []
    /// prefix[i]: the width of units 0..<i in points (filled by `Shaper.advances`).
    var prefix: [Double] = []
    /// The last layout's lines (`GreedyLines`), kept for the storage the next one fills.
    var lines: [GreedyLines.Range] = []

    /// Transcodes valid UTF-8 (a String's own bytes) into `units`; returns the unit count.
    mutating func transcode(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        // At most one unit a byte: size both arrays for that, fill them through pointers, then cut.
        let count = utf8.count
        if units.count < count { units.append(contentsOf: repeatElement(0, count: count - units.count)) }
        if utf8Offset.count < count + 1 {
            utf8Offset.append(contentsOf: repeatElement(0, count: count + 1 - utf8Offset.count))
        }
        var n = 0
        units.withUnsafeMutableBufferPointer { out in
            utf8Offset.withUnsafeMutableBufferPointer { offset in
                var i = 0
                while i < count {
                    let lead = utf8[i]
                    if lead < 0x80 {
                        out[n] = UInt16(lead)
                        offset[n] = Int32(i)
                        n += 1
                        i += 1
                        continue
                    }
                    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                    var scalar = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for k in 1..<length { scalar = scalar << 6 | UInt32(utf8[i + k] & 0x3F) }
                    if scalar >= 0x10000 {
                        let v = scalar - 0x10000
                        out[n] = UInt16(0xD800 + (v >> 10))
                        out[n + 1] = UInt16(0xDC00 + (v & 0x3FF))
                        offset[n] = Int32(i)
                        offset[n + 1] = Int32(i)
                        n += 2
                    } else {
                        out[n] = UInt16(scalar)
                        offset[n] = Int32(i)
                        n += 1
                    }
                    i += length
                }
                offset[n] = Int32(count)
            }
        }
        return n
    }

    /// The line of units start..<end (both on scalar boundaries, as line ends are) as a range of the UTF-8
    /// bytes last transcoded.
    func span(_ start: Int, _ end: Int, width: Double) -> TextBlock.Span {
        TextBlock.Span(start: utf8Offset[start], end: utf8Offset[end], width: width)
    }
}
