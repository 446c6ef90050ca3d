/// A string a model keeps, read with `Fields.text`: its UTF-8 bytes live in one buffer shared by every
/// text of the same floor decode (`TextBuffer`), not in an allocation of their own as a `String`'s do.
/// On a page of 43,000 products that is the difference between 240 bytes a product for its title, picture
/// URL and jump URL as Strings (each a 32-byte header and a malloc block) and the 91 bytes of their text
/// (BENCHMARKS.md, "Peak memory of the json render").
///
///     struct Product: Declared {
///         var title: Text
///         init(_ f: Fields) throws(DecodeError) {
///             title = try f.text("title", "The product's name.", .notBlank)
///         }
///     }
///
/// The canvas and `TextMetrics` take a `Text` as they take a `String` (its bytes go to the host as they
/// are); `String(text)` makes a String of it. Its bytes are valid UTF-8: invalid input is repaired as
/// `String(decoding:as:)` repairs it (each bad sequence one U+FFFD), so a model holds the same text either
/// way. Equal texts are equal bytes. Immutable: the buffer is only appended to while its floor decodes,
/// before any `Text` of it is handed out of the decode.
public struct Text: @unchecked Sendable {
    @usableFromInline let buffer: TextBuffer
    @usableFromInline let start: UInt32
    @usableFromInline let count: UInt32

    /// `start` and `count` fit in 32 bits: a floor's bytes are fewer than 2^31 (JSONTape), and a Text of
    /// its own is cut below 2^32 bytes (init(_:)). So a Text is 16 bytes, as a String is.
    init(buffer: TextBuffer, start: Int, count: Int) {
        self.buffer = buffer
        self.start = UInt32(truncatingIfNeeded: start)
        self.count = UInt32(truncatingIfNeeded: count)
    }

    /// The number of UTF-8 bytes.
    public var utf8Count: Int { Int(count) }

    /// A text of its own (a buffer for it alone): for literals, tests and the Codable path. A string of
    /// 4 GB or more is cut to its first 4 GB minus a byte (a model's text is a floor's, at most 2 GB).
    public init(_ string: String) {
        var string = string
        // In UInt: Int(UInt32.max) does not fit a 32-bit Int (wasm32), where no string reaches the limit.
        if string.utf8.count.magnitude >= UInt(UInt32.max) {
            string = String(decoding: string.utf8.prefix(Int(truncatingIfNeeded: UInt32.max - 1)), as: UTF8.self)
        }
        let buffer = TextBuffer(capacity: string.utf8.count)
        let start = string.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
        self.init(buffer: buffer, start: start, count: string.utf8.count)
    }

    public var isEmpty: Bool { utf8Count == 0 }

    /// Calls `body` with the text's UTF-8 bytes, valid only during the call.
    @inlinable
    public func withUTF8<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(
            UnsafeBufferPointer(
                start: buffer.base?.assumingMemoryBound(to: UInt8.self).advanced(by: Int(start)), count: Int(count)))
    }

    /// The text as a String (an allocation when longer than 15 bytes).
    public var string: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }
}

extension Text: Equatable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static func == (a: Text, b: Text) -> Bool {
        a.utf8Count == b.utf8Count && a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public var description: String { string }

    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension String {
    /// `text`'s characters as a String.
    public init(_ text: Text) {
        self = text.string
    }
}

/// The bytes of the texts one floor decode keeps, one after another. Reserved at the floor's byte count
/// (no text is longer unescaped than it is written, but for repaired UTF-8, which grows it) and cut to
/// what was used when the decode ends (`fit`), so a model holds no more than its texts (and those of the
/// items a list dropped, read before their item failed). Owned by the texts that point into it: freed with
/// the last of them.
@usableFromInline
final class TextBuffer {
    // Unchecked: a decode appends a text at a time on one thread, and a text's reads come after its floor's
    // decode returned; a dynamic exclusivity check on each access cost more than the copy (callgrind).
    @exclusivity(unchecked) @usableFromInline private(set) var base: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = capacity > 0 ? UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1) : nil
    }

    deinit { base?.deallocate() }

    /// Appends `bytes`; returns where they start. Inlined: a text read's copy is one call (to memcpy).
    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let start = count
        guard bytes.count > 0 else { return start }
        if count + bytes.count > capacity { move(to: max(capacity * 2, count + bytes.count)) }
        (base.unsafelyUnwrapped + count).copyMemory(from: bytes.baseAddress.unsafelyUnwrapped, byteCount: bytes.count)
        count += bytes.count
        return start
    }

    /// Gives back what was reserved and not used (a copy when a quarter or more of it is unused).
    func fit() {
        if capacity - count > capacity / 4 { move(to: count) }
    }

    private func move(to newCapacity: Int) {
        let moved = newCapacity > 0 ? UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1) : nil
        if let moved, let base, count > 0 { moved.copyMemory(from: base, byteCount: count) }
        base?.deallocate()
        base = moved
        capacity = newCapacity
    }
}
