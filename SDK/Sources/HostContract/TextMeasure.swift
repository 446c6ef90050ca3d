import CFloorABI
import Glibc

/// The width of a line of text as every backend reports it to plugins (docs/ABI.md, "Measuring"): 5 points
/// a display column of the text backend, control characters counted as the `\uXXXX` escape they are drawn
/// as. One function for every backend and for the host table, so a height computed from it holds in every
/// output. Styles do not change the width (the text backend draws bold and struck text in the same
/// columns). Pure; safe from any thread.
public enum TextMeasure {
    public static let pointsPerColumn = 5.0

    public static func points(_ text: String, style: UInt32 = 0) -> Double {
        Double(DisplayWidth.of(ControlCharacters.escaped(text))) * pointsPerColumn
    }

    /// For a plugin's NUL-terminated UTF-8 (invalid bytes count as U+FFFD, as the grid draws them); NULL is 0.
    public static func points(cString: UnsafePointer<CChar>?, style: UInt32) -> Double {
        guard let cString else { return 0 }
        return points(String(cString: cString), style: style)
    }
}
