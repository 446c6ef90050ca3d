/// Whitespace taken off both ends of a string, as Foundation's `trimmingCharacters(in: .whitespaces)` and
/// `(in: .whitespacesAndNewlines)` took it (ARCHITECTURE.md, "Two executables": floorhost links no
/// Foundation): whitespace is a tab, a space separator (Unicode's Zs: U+0020, U+00A0, U+2000...) or the
/// zero width space U+200B (Zs in old Unicode, kept by Foundation's set); newlines add U+000A through
/// U+000D, U+0085, U+2028 and U+2029. Checked against Foundation's sets over every scalar.
extension StringProtocol {
    /// `self` without the spaces and tabs at either end.
    package func trimmingWhitespace() -> String { trimming(Self.isWhitespace) }

    /// `self` without the spaces, tabs and line breaks at either end.
    package func trimmingWhitespaceAndNewlines() -> String {
        trimming { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028
            || scalar.value == 0x2029
    }
}
