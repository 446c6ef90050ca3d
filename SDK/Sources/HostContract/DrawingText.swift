import CFloorABI
import FloorText

/// A cell's drawing as readable, stable text, one canvas call a line: the form `floorhost conform
/// --snapshots` stores and the test kit (FloorKitTesting) prints, so a drawing reads the same in both.
///
///     box x 0 y 0 w 320 h 36
///     text x 8 y 12 max_width 304 bold "C plugin"
///     fill x 0 y 0 w 40 h 12 accent
///
/// Numbers are written in their shortest exact form; strings as JSON strings (control characters escaped).
public enum DrawingText {
    /// The widths a floor's snapshot draws it at: a small, a common and a large phone.
    public static let snapshotWidths: [Double] = [320, 375, 414]

    /// A whole floor's drawing, as conform keeps it in Snapshots/<plugin id>/<name>.txt: for each width,
    /// each row's type and height (as the height calculator returned it), then its canvas calls, drawn
    /// in a cell of that height clamped to FLOOR_MAX_ROW_HEIGHT; a row with no height at all (UnusableHeight)
    /// is marked as the placeholder floorhost shows, and its cell is not drawn.
    ///
    ///     # Badge: the canvas calls of each row at widths 320, 375 and 414 points
    ///
    ///     width 320
    ///       row 0 BadgeRow height 36
    ///         box x 0 y 0 w 320 h 36
    public static func floor(
        name: String, rowTypes: [String], height: (_ row: Int, _ width: Double) -> Double,
        draw: (_ row: Int, _ width: Double, _ height: Double) -> [RecordingCanvas.Operation]
    ) -> String {
        var lines = ["# \(name): the canvas calls of each row at widths 320, 375 and 414 points"]
        for width in snapshotWidths {
            lines.append("")
            lines.append("width \(number(width))")
            for (row, type) in rowTypes.enumerated() {
                let value = height(row, width)
                guard UnusableHeight(value) == nil else {
                    // floorhost never calls the cell of such a row: it shows a placeholder.
                    lines.append("  row \(row) \(type) height \(number(value)) (shown as a placeholder)")
                    continue
                }
                lines.append("  row \(row) \(type) height \(number(value))")
                for operation in draw(row, width, min(value, FLOOR_MAX_ROW_HEIGHT)) {
                    lines.append("    " + line(operation))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func line(_ operation: RecordingCanvas.Operation) -> String {
        switch operation {
        case .text(let text, let x, let y, let maxWidth, let style):
            return
                "text x \(number(x)) y \(number(y)) max_width \(number(maxWidth))\(styleNames(style)) \(quoted(text))"
        case .image(let source, let x, let y, let w, let h):
            return "image x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h)) \(quoted(source))"
        case .box(let x, let y, let w, let h):
            return "box x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h))"
        case .fill(let x, let y, let w, let h, let tone):
            return "fill x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h)) \(Tone(tone).name)"
        case .textBlock(let text, let x, let y, let maxWidth, let maxLines, let style):
            return
                "text_block x \(number(x)) y \(number(y)) max_width \(number(maxWidth)) max_lines \(maxLines)\(styleNames(style)) \(quoted(text))"
        }
    }

    private static func styleNames(_ style: UInt32) -> String {
        let names: [(UInt32, String)] = [
            (0x1, "bold"), (0x2, "muted"), (0x4, "accent"), (0x8, "center"), (0x10, "strike"),
        ]
        var parts = names.filter { style & $0.0 != 0 }.map(\.1)
        if let type = TypeStyle(style: style) { parts.insert(type.name, at: 0) }
        let unknown = style & ~0xF1F
        if unknown != 0 { parts.append("style 0x\(String(unknown, radix: 16))") }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }

    public static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        ControlCharacters.escaped(SerializedJSONString.quoted(text, escapingSlashes: false))
    }
}
