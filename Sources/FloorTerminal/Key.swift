/// A key (or mouse wheel notch) the terminal view acts on, decoded from the bytes a terminal sends in raw
/// mode: plain bytes, CSI and SS3 sequences (xterm, tmux, screen, the Linux console), and SGR mouse
/// reports (`ESC [ < b ; x ; y M`).
public enum Key: Equatable, Sendable {
    case up, down, pageUp, pageDown, home, end
    /// The arrow keys left and right: they page a carousel (docs/ABI.md, "Paged rows").
    case left, right
    case tab, backTab, enter
    case wheelUp, wheelDown
    case character(Character)
    /// Ctrl-C: quit, as `q` does, but reported as an interruption (exit status 130); raw mode turns it into a
    /// byte, not a signal. Ctrl-D is `q`.
    case interrupt
}

/// Turns the bytes read from a terminal into keys. Bytes of an escape sequence may arrive in separate
/// reads: what is not complete yet stays buffered until the next `keys(from:)`, or `flush()` when no more
/// bytes came (a lone Escape press).
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys `bytes` complete, in order. Unknown sequences are dropped whole.
    public mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            guard let (key, length) = Self.decode(pending[i...]) else { break }
            if let key { keys.append(key) }
            i += length
        }
        pending.removeFirst(i)
        return keys
    }

    /// Drops an incomplete sequence (a lone ESC is nothing the view acts on).
    public mutating func flush() { pending.removeAll() }

    /// The key at the start of `bytes` and how many bytes it took (key nil: bytes to skip), or nil when
    /// the sequence is not complete yet.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1b: return escape(bytes)
        case 0x09: return (.tab, 1)
        case 0x0d, 0x0a: return (.enter, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.character("q"), 1)
        case 0x20: return (.character(" "), 1)
        case 0x21...0x7e: return (.character(Character(Unicode.Scalar(first))), 1)
        case 0x80...: return utf8Character(bytes)
        default: return (nil, 1)
        }
    }

    private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let kind = bytes[start + 1]
        guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return (nil, 1) }
        // CSI: parameters and intermediates (0x20...0x3f), then one final byte (0x40...0x7e).
        var end = start + 2
        while end < bytes.endIndex, (0x20...0x3f).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return bytes.count > 32 ? (nil, bytes.count) : nil }
        let final = bytes[end]
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let length = end - start + 1
        if parameters.hasPrefix("<") {
            // SGR mouse: button 64 is the wheel up, 65 down; presses end in M, releases in m.
            let button = parameters.dropFirst().split(separator: ";").first.flatMap { Int($0) }
            guard final == UInt8(ascii: "M") else { return (nil, length) }
            return (button == 64 ? .wheelUp : button == 65 ? .wheelDown : nil, length)
        }
        let key: Key? =
            switch (final, parameters) {
            case (UInt8(ascii: "A"), _): .up
            case (UInt8(ascii: "B"), _): .down
            case (UInt8(ascii: "C"), _): .right
            case (UInt8(ascii: "D"), _): .left
            case (UInt8(ascii: "H"), _): .home
            case (UInt8(ascii: "F"), _): .end
            case (UInt8(ascii: "Z"), _): .backTab
            case (UInt8(ascii: "~"), "5"): .pageUp
            case (UInt8(ascii: "~"), "6"): .pageDown
            case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
            case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
            default: nil
            }
        return (key, length)
    }

    private static func utf8Character(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1
        guard length > 1 else { return (nil, 1) }
        guard bytes.count >= length else { return nil }
        let text = String(decoding: bytes.prefix(length), as: UTF8.self)
        return (text.first.map(Key.character), length)
    }
}
