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
        self.text = text
        characterReady = false
        found.removeAll(keepingCapacity: true)
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
