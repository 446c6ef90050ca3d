import Foundation

/// A sample floor's drawing as readable, stable text: for each snapshot width, each row's type and height,
/// then the canvas calls its cell selector made, one a line. This is what `conform --snapshots DIR` keeps
/// in DIR/<plugin id>/<sample name>.txt and compares line by line:
///
///     # Badge: the canvas calls of each row at widths 320, 375 and 414 points
///
///     width 320
///       row 0 BadgeRow height 36
///         box x 0 y 0 w 320 h 36
///         text x 8 y 12 max_width 304 bold "C plugin"
///
/// Numbers are written in their shortest exact form; strings as JSON strings (control characters escaped).
enum SnapshotText {
    static let widths: [Double] = [320, 375, 414]

    /// Draws `sample` (which the samples check proved decodes and expands) at every snapshot width.
    static func render(_ plugin: PluginUnderTest, _ sample: SampleSet.Sample, name: String) throws(ConformanceFailure) -> String {
        var lines = ["# \(name): the canvas calls of each row at widths 320, 375 and 414 points"]
        try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
            for width in widths {
                lines.append("")
                lines.append("width \(number(width))")
                for (row, rowType) in rows.enumerated() {
                    let type = plugin.rowType(rowType)
                    plugin.step("\(type.height.name) and \(type.cell.name) on row \(row) of \(sample.label) at width \(number(width)), for its snapshot")
                    let height = plugin.height(rowType, model, row: row, width: width)
                    lines.append("  row \(row) \(type.name) height \(number(height))")
                    let drawn = height.isFinite ? min(max(height, 0), Adapter.maxRowHeight) : 0
                    for operation in plugin.draw(rowType, model, row: row, width: width, height: drawn) {
                        lines.append("    " + line(operation))
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func line(_ operation: RecordingCanvas.Operation) -> String {
        switch operation {
        case let .text(text, x, y, maxWidth, style):
            return "text x \(number(x)) y \(number(y)) max_width \(number(maxWidth))\(styleNames(style)) \(quoted(text))"
        case let .image(source, x, y, w, h):
            return "image x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h)) \(quoted(source))"
        case let .box(x, y, w, h):
            return "box x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h))"
        case let .fill(x, y, w, h, tone):
            return "fill x \(number(x)) y \(number(y)) w \(number(w)) h \(number(h)) \(Tone(tone).name)"
        }
    }

    private static func styleNames(_ style: UInt32) -> String {
        let names: [(UInt32, String)] = [(0x1, "bold"), (0x2, "muted"), (0x4, "accent"), (0x8, "center"), (0x10, "strike")]
        var parts = names.filter { style & $0.0 != 0 }.map(\.1)
        let unknown = style & ~0x1F
        if unknown != 0 { parts.append("style 0x\(String(unknown, radix: 16))") }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }

    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        let array = String(decoding: data, as: UTF8.self)
        return ControlCharacters.escaped(String(array.dropFirst().dropLast()))
    }
}

extension BehaviourChecks {
    /// The `snapshots` check's child half: draws every sample and sends the text to the parent, which
    /// records or compares it (SnapshotStore). Passes here unless a call fails; the parent judges the rest.
    static func snapshots(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        var used: [String: Int] = [:]
        for sample in samples.samples {
            used[sample.name, default: 0] += 1
            let name = used[sample.name]! == 1 ? sample.name : "\(sample.name)-\(used[sample.name]!)"
            plugin.send(.snapshot(name: name, text: try SnapshotText.render(plugin, sample, name: name)))
        }
    }
}
