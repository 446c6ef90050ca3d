import CFloorABI
import FloorText
import Glibc

/// The width of a line of text as every backend reports it to plugins (docs/ABI.md, "Measuring"): 5 points
/// a display column of the text backend, control characters counted as the `\uXXXX` escape they are drawn
/// as. One function for every backend and for the host table, so a height computed from it holds in every
/// output. Styles do not change the width (the text backend draws bold and struck text in the same
/// columns). Since ABI 1.5 a style word with a text style (bits 8-11) measures real type instead: the
/// engine's single-line width (docs/ABI.md, "Text layout"). Pure; safe from any thread.
public enum TextMeasure {
    public static let pointsPerColumn = 5.0

    public static func points(_ text: String, style: UInt32 = 0) -> Double {
        if let type = TypeStyle(style: style) {
            var text = text
            return text.withUTF8 { sharedEngine.lineWidth(utf8: UnsafeRawBufferPointer($0), style: type) }
        }
        return Double(DisplayWidth.of(ControlCharacters.escaped(text))) * pointsPerColumn
    }

    /// For a plugin's NUL-terminated UTF-8 (invalid bytes count as U+FFFD, as the grid draws them); NULL is 0.
    public static func points(cString: UnsafePointer<CChar>?, style: UInt32) -> Double {
        guard let cString else { return 0 }
        if let type = TypeStyle(style: style) {
            return sharedEngine.lineWidth(
                utf8: UnsafeRawBufferPointer(start: cString, count: strlen(cString)), style: type)
        }
        return points(String(cString: cString), style: style)
    }
}
