/// An engine block's lines and its text's valid UTF-8 in one allocation: the spans (`TextBlock.Span`, byte
/// ranges and widths), then the bytes. A block laid out to be drawn once (each row's texts in a whole-page
/// text preview) so costs one allocation and one free, where an array of each cost two (BENCHMARKS.md,
/// issue 23). Immutable once made.
final class LaidOutText: ManagedBuffer<LaidOutText.Counts, TextBlock.Span> {
    struct Counts {
        let lines: Int
        let bytes: Int
        /// The widest line, in points.
        var width: Double
    }

    /// `lines` spans, which `spans` writes in order, followed by a copy of `utf8`.
    static func make(
        utf8: UnsafeRawBufferPointer, lines: Int, _ spans: (UnsafeMutablePointer<TextBlock.Span>) -> Void
    ) -> LaidOutText {
        let stride = MemoryLayout<TextBlock.Span>.stride
        let made = unsafeDowncast(
            create(minimumCapacity: lines + (utf8.count + stride - 1) / stride) { _ in
                Counts(lines: lines, bytes: utf8.count, width: 0)
            }, to: LaidOutText.self)
        made.withUnsafeMutablePointers { counts, out in
            spans(out)
            var widest = 0.0
            for i in 0..<lines { widest = max(widest, out[i].width) }
            counts.pointee.width = widest
            if let bytes = utf8.baseAddress, utf8.count > 0 {
                UnsafeMutableRawPointer(out + lines).initializeMemory(
                    as: UInt8.self, from: bytes.assumingMemoryBound(to: UInt8.self), count: utf8.count)
            }
        }
        return made
    }

    // Through the pointer, not `header`: a class's stored property, each access checked for exclusivity.
    var lineCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.lines } }
    var width: Double { withUnsafeMutablePointerToHeader { $0.pointee.width } }

    func span(_ index: Int) -> TextBlock.Span {
        withUnsafeMutablePointerToElements { $0[index] }
    }

    /// Calls `body` with the text's bytes.
    func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeMutablePointers { counts, spans in
            body(UnsafeRawBufferPointer(start: spans + counts.pointee.lines, count: counts.pointee.bytes))
        }
    }

    /// Line `index`'s bytes (without the ellipsis of a cut text's last line), valid while this text is: the caller
    /// holds it for as long as it reads them (TextBlock.engineLine, whose caller holds the block).
    func line(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        withUnsafeMutablePointers { counts, spans in
            let span = spans[index]
            let bytes = UnsafeRawPointer(spans + counts.pointee.lines).assumingMemoryBound(to: UInt8.self)
            return UnsafeBufferPointer(start: bytes + Int(span.start), count: Int(span.end - span.start))
        }
    }
}
