import CLineBreak

/// ICU's line and grapheme break iterators over one text (Unicode's line-breaking rules, UAX #14: CJK
/// breaks between characters, Latin at spaces, no line starts with closing punctuation). Owned by the
/// engine and used only under its lock; the text they point at must outlive the calls that follow
/// `setText`.
final class BreakIterators {
    /// A place a line may end, in UTF-16 units; `hard` for a mandatory break (after a line feed).
    struct Opportunity {
        let offset: Int
        let hard: Bool
    }

    private let line: OpaquePointer?
    private let character: OpaquePointer?
    // Unchecked for exclusivity: used only under the engine's lock, by one call at a time; the checked
    // accesses of `found`'s appends were 29 M of the json render's 1,690 M instructions (issue 23).
    @exclusivity(unchecked) private var characterReady = false
    @exclusivity(unchecked) private var text: UnsafeBufferPointer<UInt16> = .init(start: nil, count: 0)
    /// The last text's opportunities: one array kept from call to call (a fresh one grew from empty at
    /// every text, 2 % of measuring a feed's titles).
    @exclusivity(unchecked) private var found: [Opportunity] = []

    init() {
        line = floor_break_open(1)
        character = floor_break_open(0)
    }

    deinit {
        if let line { floor_break_close(line) }
        if let character { floor_break_close(character) }
    }

    /// Every line break opportunity of `text`, in order, ending with text.count. Without ICU (it failed to
    /// open), only the end.
    func opportunities(_ text: UnsafeBufferPointer<UInt16>) -> [Opportunity] {
        plainOpportunities(text) ? found : opportunitiesByICU(text)
    }

    /// `opportunities` as ICU gives them, whatever the text (what `plainOpportunities` is checked against).
    func opportunitiesByICU(_ text: UnsafeBufferPointer<UInt16>) -> [Opportunity] {
        start(text)
        guard let line, let base = text.baseAddress, floor_break_set_text(line, base, Int32(text.count)) != 0 else {
            found.append(Opportunity(offset: text.count, hard: false))
            return found
        }
        while true {
            let offset = floor_break_next(line)
            if offset < 0 { break }
            found.append(Opportunity(offset: Int(offset), hard: floor_break_is_hard(line) != 0))
        }
        if found.last?.offset != text.count { found.append(Opportunity(offset: text.count, hard: false)) }
        return found
    }

    /// The opportunities of a text made only of ASCII letters and digits, spaces, quotation marks and CJK
    /// unified ideographs (U+4E00-U+9FFF), not starting with a space, into `found`; false (nothing added)
    /// for any other text. These are UAX #14's classes AL, NU, SP, QU and ID, between which its rules (as
    /// ICU applies them) give: no break before a space (LB7); a break after spaces (LB18); none before or
    /// after a quotation mark (LB19); a break before and after an ideograph (LB31); none between letters
    /// and digits (LB23, LB25, LB28); none mandatory. So every title of the 8 MB page is broken without
    /// ICU, whose iteration was 111 M of the json render's 1,635 M instructions. BreakIteratorsTests checks
    /// these against ICU's own.
    func plainOpportunities(_ text: UnsafeBufferPointer<UInt16>) -> Bool {
        guard let first = text.first, first != 0x20 else { return false }
        for unit in text where Self.plainClass(unit) == 0 { return false }
        start(text)
        var previous = Self.plainClass(first)
        for i in 1..<text.count {
            let current = Self.plainClass(text[i])
            let breaks: Bool
            if current == Self.space {
                breaks = false
            } else if previous == Self.space {
                breaks = true
            } else if previous == Self.quotation || current == Self.quotation {
                breaks = false
            } else {
                breaks = previous == Self.ideograph || current == Self.ideograph
            }
            if breaks { found.append(Opportunity(offset: i, hard: false)) }
            previous = current
        }
        found.append(Opportunity(offset: text.count, hard: false))
        return true
    }

    private static let letterOrDigit: UInt8 = 1, space: UInt8 = 2, quotation: UInt8 = 3, ideograph: UInt8 = 4

    /// `unit`'s class for `plainOpportunities`, 0 for a unit outside them.
    private static func plainClass(_ unit: UInt16) -> UInt8 {
        switch unit {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: letterOrDigit
        case 0x20: space
        case 0x22: quotation
        case 0x4E00...0x9FFF: ideograph
        default: 0
        }
    }

    /// Makes `text` the one `graphemeEnd` looks into, and empties `found`.
    private func start(_ text: UnsafeBufferPointer<UInt16>) {
        self.text = text
        characterReady = false
        found.removeAll(keepingCapacity: true)
    }

    /// The end of the grapheme cluster that starts at or contains `offset` (of the text last given to
    /// `opportunities`); at least offset + 1.
    func graphemeEnd(after offset: Int) -> Int {
        if !characterReady, let character, let base = text.baseAddress {
            characterReady = floor_break_set_text(character, base, Int32(text.count)) != 0
        }
        guard characterReady, let character else { return min(offset + 1, text.count) }
        let next = Int(floor_break_following(character, Int32(offset)))
        return next <= offset ? min(offset + 1, text.count) : next
    }
}
