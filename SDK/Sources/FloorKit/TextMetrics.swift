import CFloorABI

/// Text widths for height calculators, which get no canvas (docs/ABI.md, "Measuring"): a height that
/// follows a title's length measures it here, and `Canvas.measure` returns the same number when drawing.
///
///     height: { floor, item, width in
///         TextMetrics.width(of: floor.items[item].title, style: .bold) > width - 124 ? 120 : 108 }
///
/// Contract: the host's width when it is ABI 1.4 or later (floor_host_t.measure_text: 5 points a display
/// column of the text backend); under a 1.3 host, the SDK's estimate of the same rule (10 points for East
/// Asian wide characters, 0 for combining marks and format characters, 5 for the rest), which agrees with
/// the host for ordinary text. Call only during a call the host makes into the plugin, on its thread.
public enum TextMetrics {
    public static func width(of text: String, style: TextStyle = []) -> Double {
        if let host = FloorPlugin.host,
            Int(host.pointee.struct_size) >= MemoryLayout<floor_host_t>.offset(of: \floor_host_t.measure_text)!
                + MemoryLayout<UnsafeRawPointer>.size,
            let measure = host.pointee.measure_text
        {
            return text.withCString { measure(host, $0, style.rawValue) }
        }
        return estimate(text)
    }

    /// The 1.3 fallback: the ABI's layout rule with a small table of wide and zero-width scalars.
    static func estimate(_ text: String) -> Double {
        var points = 0.0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: continue
            default: break
            }
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            points += wide ? 10 : 5
        }
        return points
    }
}
