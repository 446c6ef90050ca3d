import CFloorABI

// The canvas and the metrics take a model's `Text` as they take a String: on a host with ABI 1.5's text
// calls and fitted images its bytes go as they are, with their length (no String is made); on an older
// host, as the String of it (those calls take NUL-terminated strings).

extension Canvas {
    public func text(_ text: Text, x: Double, y: Double, maxWidth: Double? = nil, style: TextStyle = []) {
        self.text(String(text), x: x, y: y, maxWidth: maxWidth, style: style)
    }

    public func image(_ source: Text, x: Double, y: Double, width: Double, height: Double, fit: ImageFit = .fill) {
        guard StructSize.reaches(raw.pointee.struct_size, \floor_canvas_t.fitted_image),
            let fitted = raw.pointee.fitted_image
        else {
            return image(String(source), x: x, y: y, width: width, height: height, fit: fit)
        }
        source.withUTF8 { bytes in
            fitted(raw, x, y, width, height, TextLayout.start(bytes), UInt64(bytes.count), fit.rawValue)
        }
    }

    public func measure(_ text: Text, style: TextStyle = []) -> Double {
        measure(String(text), style: style)
    }

    public func layout(_ text: Text, font: TextFont, style: TextStyle = [], width: Double, maxLines: Int = 0)
        -> TextLayout
    {
        guard hasTextBlocks, let layout = raw.pointee.layout_text else {
            return TextMetrics.layout(text, font: font, style: style, width: width, maxLines: maxLines)
        }
        return text.withUTF8 { bytes in
            TextLayout.measure(bytes, word: font.word(style), width: width, maxLines: maxLines) {
                layout(raw, $0, $1, $2, $3, $4, $5)
            }
        }
    }

    public func textBlock(
        _ text: Text, x: Double, y: Double, width: Double, maxLines: Int = 0, font: TextFont, style: TextStyle = []
    ) {
        guard hasTextBlocks, let block = raw.pointee.text_block else {
            return textBlock(String(text), x: x, y: y, width: width, maxLines: maxLines, font: font, style: style)
        }
        let word = font.word(style)
        text.withUTF8 { bytes in
            block(
                raw, x, y, width, UInt32(clamping: max(0, maxLines)), TextLayout.start(bytes), UInt64(bytes.count), word
            )
        }
    }
}

extension TextMetrics {
    public static func width(of text: Text, style: TextStyle = []) -> Double {
        width(of: String(text), style: style)
    }

    public static func layout(
        _ text: Text, font: TextFont, style: TextStyle = [], width: Double, maxLines: Int = 0
    ) -> TextLayout {
        guard let host = FloorPlugin.host,
            StructSize.reaches(host.pointee.struct_size, \floor_host_t.layout_text),
            let layout = host.pointee.layout_text
        else {
            return CellLines.layout(String(text), width: width, maxLines: maxLines)
        }
        return text.withUTF8 { bytes in
            TextLayout.measure(bytes, word: font.word(style), width: width, maxLines: maxLines) {
                layout(host, $0, $1, $2, $3, $4, $5)
            }
        }
    }
}
