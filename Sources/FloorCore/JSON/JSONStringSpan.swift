/// A JSON string's content bytes (between its quotes) where they stand, already validated by JSONCursor:
/// offsets into the cursor's bytes, so reading a string costs no copy until its text is wanted.
package struct JSONStringSpan: Sendable, Equatable {
    package var start: Int
    package var end: Int
    /// False when the content has no backslash, so the bytes are the decoded UTF-8 as they stand.
    package var escaped: Bool

    @inlinable package init(start: Int, end: Int, escaped: Bool) {
        self.start = start
        self.end = end
        self.escaped = escaped
    }
}
