import FloorText
import Foundation

// Issue 19's text figures (BENCHMARKS.md, "Real text"): the text engine in release, in process.
//   cold:   non-repeating strings laid out once each at 343 points in the body style, 2 lines at most:
//           glyphs a second, wall clock; product titles (each a different string of shared words: CJK,
//           Latin, prices, emoji), and random words and ideographs (nothing shared);
//           and the 8 MB benchmark page's titles (Benchmarks/Inputs/make_page.py: 3 to 7 of its 32 words,
//           so every piece has been shaped before and some whole titles repeat): what the end-to-end
//           figure's height calculators ask;
//   cached: the same 1,000 strings laid out again and again: ns per string.
// Usage: TextBench [strings] [rounds] [--titles-only | --page-titles-only]     (defaults 20000, 200)

let strings = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20_000 : 20_000
let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 200 : 200
let engine = TextEngine.shared
guard engine.problem == nil else {
    print("TextBench: \(engine.problem!)")
    exit(1)
}
let body = TypeStyle(style: 0x300)!
let words = [
    "Wireless", "earbuds", "noise-cancelling", "stainless", "steel", "bottle", "750ml", "organic", "milk", "¥1,299.00",
    "无线蓝牙耳机", "有机纯牛奶", "限时秒杀", "新品上市", "官方旗舰店", "Singles'", "Day", "-34%", "🎁", "USB-C",
]
func title(_ i: Int) -> String {
    var state = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 | 1
    var parts: [String] = []
    for _ in 0..<(4 + i % 6) {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        parts.append(words[Int(state % UInt64(words.count))])
    }
    return parts.joined(separator: " ") + " #\(i)"  // the number makes every string new
}
/// A title as the 8 MB page's generator makes them: 3 to 7 of its words joined by spaces.
let pageWords = [
    "无线蓝牙耳机", "Pro", "保温杯", "750ml", "Stainless", "steel", "运动鞋", "Running", "shoes", "机械键盘", "RGB", "有机",
    "牛奶", "Organic", "milk", "4K", "显示器", "Monitor", "27\"", "充电宝", "20000mAh", "背包", "Backpack", "旅行", "Travel",
    "智能手表", "Smart", "watch", "咖啡豆", "Coffee", "beans", "1kg",
]
func pageTitle(_ i: Int) -> String {
    var state = UInt64(i + 7) &* 0x2545_F491_4F6C_DD1D | 1
    func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    return (0..<(3 + Int(next() % 5))).map { _ in pageWords[Int(next() % UInt64(pageWords.count))] }.joined(
        separator: " ")
}
/// Text with no reuse at all: random lowercase words and random CJK ideographs (U+4E00-U+9FFF), so no
/// word or character piece repeats often (the engine's piece cache rarely helps).
func random(_ i: Int) -> String {
    var state = UInt64(i + 1) &* 0xD1B5_4A32_D192_ED03
    func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
    var s = ""
    for _ in 0..<(4 + Int(next() % 6)) {
        if next() % 2 == 0 {
            for _ in 0..<(2 + Int(next() % 8)) { s.unicodeScalars.append(Unicode.Scalar(UInt8(97 + next() % 26))) }
        } else {
            for _ in 0..<(1 + Int(next() % 4)) {
                s.unicodeScalars.append(Unicode.Scalar(UInt32(0x4E00 + next() % 0x5200))!)
            }
        }
        s += " "
    }
    return s + "\(i)"
}

// Warm the faces and the iterators (their first use opens tables), then measure.
_ = engine.layout("warm 日本 🎁", style: body, maxWidth: 343, maxLines: 2)
func measureCold(_ name: String, _ texts: [String]) {
    let before = engine.counts
    let clock = ContinuousClock.now
    for text in texts { _ = engine.layout(text, style: body, maxWidth: 343, maxLines: 2) }
    let time = ContinuousClock.now - clock
    let after = engine.counts
    let units = after.units - before.units
    let shaped = after.glyphs - before.glyphs
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    print(
        "cold, \(name): \(texts.count) strings, \(units) characters (UTF-16 units, about one glyph each) in \(String(format: "%.3f", seconds)) s: \(Int(Double(units) / seconds)) glyphs/s, \(Int(seconds / Double(texts.count) * 1e9)) ns/string (\(shaped) glyphs went through HarfBuzz)"
    )
}
let pageOnly = CommandLine.arguments.contains("--page-titles-only")
let cold = (0..<strings).map(title)
if !pageOnly { measureCold("product titles", cold) }
if !CommandLine.arguments.contains("--titles-only") {
    measureCold("the 8 MB page's titles", (0..<strings).map(pageTitle))
}
if !CommandLine.arguments.contains("--titles-only") && !pageOnly {
    measureCold("random words and ideographs", (0..<strings).map(random))
}

let repeated = Array(cold.prefix(1_000))
for text in repeated { _ = engine.layout(text, style: body, maxWidth: 343, maxLines: 2) }
let start = ContinuousClock.now
for _ in 0..<rounds { for text in repeated { _ = engine.layout(text, style: body, maxWidth: 343, maxLines: 2) } }
let cachedTime = ContinuousClock.now - start
let cachedSeconds =
    Double(cachedTime.components.seconds) + Double(cachedTime.components.attoseconds) / 1e18
print(
    "cached: \(repeated.count * rounds) layouts of unchanged strings: \(Int(cachedSeconds / Double(repeated.count * rounds) * 1e9)) ns/string"
)
