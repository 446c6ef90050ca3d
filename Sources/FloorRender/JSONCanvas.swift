import CFloorABI
import FloorCore
import FloorLayout
import FloorText
import HostContract

/// The JSON backend's canvas: each draw call becomes an operation object, so machines and tests see what a
/// cell drew, with the plugin's own coordinates.
package final class JSONCanvas: CanvasBackend {
    package init() {}

    package private(set) var out = JSONWriter()
    private var count = 0

    private func begin(_ op: StaticString) {
        if count > 0 { out.raw(",") }
        count += 1
        out.raw("{")
        out.key("op")
        out.raw("\"")
        out.raw(op)
        out.raw("\"")
    }

    private func field(_ name: StaticString, _ value: Double) {
        out.raw(",")
        out.key(name)
        out.number(value)
    }

    package func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        begin("text")
        field("x", x)
        field("y", y)
        field("maxWidth", maxWidth)
        out.raw(",")
        out.key("text")
        out.string(text)
        out.raw(",")
        out.key("style")
        out.number(Int(style))
        if style & FLOOR_TEXT_STRIKE != 0 {
            out.raw(",")
            out.key("strike")
            out.raw("true")
        }
        out.raw("}")
    }

    package func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
        begin("image")
        field("x", x)
        field("y", y)
        field("width", width)
        field("height", height)
        out.raw(",")
        out.key("source")
        out.string(source)
        out.raw("}")
    }

    /// `{"op":"fill",...,"tone":"subtle"|"muted"|"accent"}`: the tone by name, unknown tones as "subtle".
    package func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
        begin("fill")
        field("x", x)
        field("y", y)
        field("width", width)
        field("height", height)
        out.raw(",")
        out.key("tone")
        out.string(Tone(tone).name)
        out.raw("}")
    }

    /// `{"op":"textBlock",...,"text":...,"font":"body","lines":[{"text","x","y","width"}],"height","truncated"}`: the
    /// call's arguments and the lines the host broke, each where it is drawn (docs/ABI.md, "Text layout").
    package func textBlock(_ drawing: TextBlockDrawing) {
        begin("textBlock")
        field("x", drawing.x)
        field("y", drawing.y)
        field("maxWidth", drawing.maxWidth)
        out.raw(",")
        out.key("maxLines")
        out.number(Int(drawing.maxLines))
        out.raw(",")
        out.key("style")
        out.number(Int(drawing.style))
        out.raw(",")
        out.key("text")
        out.string(drawing.text)
        out.raw(",")
        out.key("font")
        out.string(TypeStyle(style: drawing.style)?.name ?? "cell")
        out.raw(",")
        out.key("lines")
        out.raw("[")
        for (i, line) in drawing.block.lines.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("text")
            out.string(line.text)
            field("x", drawing.lineX(i))
            field("y", drawing.lineY(i))
            field("width", line.width)
            out.raw("}")
        }
        out.raw("]")
        field("height", drawing.block.height)
        out.raw(",")
        out.key("truncated")
        out.raw(drawing.block.truncated ? "true" : "false")
        if drawing.style & FLOOR_TEXT_STRIKE != 0 {
            out.raw(",")
            out.key("strike")
            out.raw("true")
        }
        out.raw("}")
    }

    package func box(x: Double, y: Double, width: Double, height: Double) {
        begin("box")
        field("x", x)
        field("y", y)
        field("width", width)
        field("height", height)
        out.raw("}")
    }
}
