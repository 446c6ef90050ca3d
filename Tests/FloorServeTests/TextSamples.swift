/// Generated text for the agreement test (TextAgreementTests): CJK, Latin, digits and prices, emoji and
/// mixed strings, most long enough to wrap at a phone's widths, from a fixed seed so every run measures the
/// same strings.
struct TextSamples {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    private static let hanzi = Array(
        "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天"
    )
    private static let kana = Array("あいうえおかきくけこさしすせそたちてとなにねのはひふへほまみむめもやよらりるれろわをんアイウエオカキクケコサシスセソタチテトナニ")
    private static let closing = Array("。、，！？」）：；")
    private static let opening = Array("「（")
    private static let words = [
        "wireless", "earbuds", "with", "noise-cancelling", "charging", "case", "and", "a", "soft", "travel",
        "pouch", "stainless", "steel", "water", "bottle", "bamboo", "lid", "organic", "whole", "milk", "fresh",
        "today", "only", "free", "delivery", "over", "the", "weekend", "limited", "edition", "cotton", "shirt",
        "for", "kids", "smart", "watch", "sports", "band", "coffee", "beans", "dark", "roast", "Singles'", "Day",
        "sale", "new", "arrivals", "brand", "official", "store", "gift", "set", "of", "three", "blue", "green",
        "extraordinarily", "comfortable", "Bluetooth", "5.3", "USB-C", "fast", "charge", "(2026)", "best-seller",
    ]
    private static let prices = [
        "¥1,299.00", "¥59.90", "¥9.90", "$12.99", "-34%", "¥199起", "3×", "10:00", "20:00", "2026", "750ml",
        "1,000,000", "¥0.13", "99+", "No. 7", "4.8★", "12.5%", "€8,50",
    ]
    private static let emoji = [
        "😀", "😂", "🥰", "😎", "🤔", "🎉", "🔥", "👍", "✨", "🌟", "🍎", "🍕", "🎁", "🛒", "📦", "🚚", "💰", "🌈", "❤️", "🥤",
    ]

    private mutating func cjk(_ count: Int) -> String {
        var s = ""
        for _ in 0..<count {
            let r = int(0...99)
            if r < 3 { s += String(pick(Self.opening)) }
            s += String(r < 70 ? pick(Self.hanzi) : pick(Self.kana))
            if int(0...9) == 0 { s += String(pick(Self.closing)) }
        }
        return s
    }

    private mutating func latin(_ count: Int) -> String {
        var parts: [String] = []
        for i in 0..<count {
            var word = pick(Self.words)
            if i == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            if int(0...11) == 0 { word += "," }
            parts.append(word)
        }
        return parts.joined(separator: " ") + (int(0...2) == 0 ? "." : "")
    }

    private mutating func prices(_ count: Int) -> String {
        (0..<count).map { _ in int(0...2) == 0 ? pick(Self.words) : pick(Self.prices) }.joined(separator: " ")
    }

    private mutating func emojiText(_ count: Int) -> String {
        (0..<count).map { _ in int(0...1) == 0 ? pick(Self.emoji) : pick(Self.words) }.joined(separator: " ")
    }

    /// The `i`th string: the kinds in turn, CJK, Latin, digits and prices, emoji, mixed.
    mutating func string(_ i: Int) -> String {
        switch i % 5 {
        case 0: return cjk(int(6...48))
        case 1: return latin(int(3...18))
        case 2: return prices(int(3...12))
        case 3: return emojiText(int(3...14))
        default:
            var s = ""
            for _ in 0..<int(2...5) {
                switch int(0...3) {
                case 0: s += cjk(int(2...10))
                case 1: s += latin(int(1...4)) + " "
                case 2: s += pick(Self.prices) + " "
                default: s += pick(Self.emoji)
                }
            }
            return s.trimmingSpaces
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
