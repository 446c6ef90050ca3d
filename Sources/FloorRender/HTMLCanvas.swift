import CFloorABI
import FloorLayout
import FloorText
import HostContract

/// The HTML backend's canvas: each draw call of one cell becomes an absolutely placed element inside the
/// row's element, at the plugin's own coordinates (CSS pixels = points). Text keeps its style as classes
/// (`bold`, `muted`, `accent`, `center`, `strike`, from floor_abi.h's FLOOR_TEXT_*), is cut to its max width with an
/// ellipsis, and is escaped; an image is a placeholder frame naming its source, with the picture over it
/// when `images` gives it an address (`serve`: a file under the root, an allowed origin; the html output
/// fetches nothing); a box is a frame, or a rule when its height is 0.
package final class HTMLCanvas: CanvasBackend {
    /// The address to draw an image source from, or nil for the placeholder alone. What it returns goes into
    /// an attribute escaped; it decides what may be fetched.
    private let images: ((String) -> String?)?

    package init(images: ((String) -> String?)? = nil) { self.images = images }

    package private(set) var html = ""

    package func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        var classes = "t"
        if style & FLOOR_TEXT_BOLD != 0 { classes += " bold" }
        if style & FLOOR_TEXT_MUTED != 0 { classes += " muted" }
        if style & FLOOR_TEXT_ACCENT != 0 { classes += " accent" }
        if style & FLOOR_TEXT_CENTER != 0 { classes += " center" }
        if style & FLOOR_TEXT_STRIKE != 0 { classes += " strike" }  // CSS line-through
        html +=
            "<span class=\"\(classes)\" style=\"left:\(HTMLText.px(x));top:\(HTMLText.px(y));width:\(HTMLText.px(max(0, maxWidth)))\">"
            + HTMLText.escaped(text) + "</span>"
    }

    package func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {
        image(source, x: x, y: y, width: width, height: height, mode: FLOOR_IMAGE_FILL)
    }

    /// FLOOR_IMAGE_FIT is the class `fit` (the picture whole inside its frame); any other mode fills it.
    package func image(_ source: String, x: Double, y: Double, width: Double, height: Double, mode: UInt32) {
        let escaped = HTMLText.escaped(source)
        // The file's base name names an image well enough in a preview; the whole source is the tooltip.
        let file = source.split(separator: "/").last.map(String.init) ?? source
        html +=
            "<div class=\"img\(mode == FLOOR_IMAGE_FIT ? " fit" : "")\" title=\"\(escaped)\" data-source=\"\(escaped)\" style=\"left:\(HTMLText.px(x));top:\(HTMLText.px(y));width:\(HTMLText.px(max(0, width)));height:\(HTMLText.px(max(0, height)))\"><span>"
            + HTMLText.escaped(file) + "</span>"
            + (images?(source).map {
                // No referrer: an image host learns nothing of the preview. Cover: the frame filled, centred.
                "<img src=\"\(HTMLText.escaped($0))\" alt=\"\" loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\">"
            } ?? "") + "</div>"
    }

    /// A `div.fill` with the tone as a class (`subtle`, `muted`, `accent`), which sets its background.
    package func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
        html +=
            "<div class=\"fill \(Tone(tone).name)\" style=\"left:\(HTMLText.px(x));top:\(HTMLText.px(y));width:\(HTMLText.px(max(0, width)));height:\(HTMLText.px(max(0, height)))\"></div>"
    }

    /// Each of the host's lines as its own absolutely placed `span.tl` (no wrapping, no clipping), in the
    /// style's size and weight (classes `caption` ... `title`, weight `w400`/`w600`/`w700`) with the served
    /// font set, so the browser draws exactly the lines the host measured (docs/ABI.md, "Text layout").
    /// A cell-metric block (style 0) draws its lines as `text` does.
    package func textBlock(_ drawing: TextBlockDrawing) {
        guard let type = TypeStyle(style: drawing.style) else {
            for (i, line) in drawing.block.lines.enumerated() {
                text(
                    line.text, x: drawing.x, y: drawing.lineY(i), maxWidth: drawing.maxWidth,
                    style: drawing.style)
            }
            return
        }
        var classes = "tl \(type.name) w\(type.weight.rawValue)"
        if drawing.style & FLOOR_TEXT_MUTED != 0 { classes += " muted" }
        if drawing.style & FLOOR_TEXT_ACCENT != 0 { classes += " accent" }
        if drawing.style & FLOOR_TEXT_STRIKE != 0 { classes += " strike" }
        for (i, line) in drawing.block.lines.enumerated() {
            html +=
                "<span class=\"\(classes)\" data-width=\"\(line.width)\" style=\"left:\(HTMLText.px(drawing.lineX(i)));top:\(HTMLText.px(drawing.lineY(i)))\">"
                + HTMLText.escaped(line.text) + "</span>"
        }
    }

    package func box(x: Double, y: Double, width: Double, height: Double) {
        let kind = height == 0 ? "rule" : "box"
        html +=
            "<div class=\"\(kind)\" style=\"left:\(HTMLText.px(x));top:\(HTMLText.px(y));width:\(HTMLText.px(max(0, width)));height:\(HTMLText.px(max(0, height)))\"></div>"
    }
}
