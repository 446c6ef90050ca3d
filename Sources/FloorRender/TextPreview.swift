import FloorLayout
import FloorSession

/// The text output of a page session, as a person reads it: the page's title (when it has one), the
/// floors (the whole page, or the screen a viewport shows), and a last line saying where the session
/// stands with next pages (`NextPageStatus`), so that a next page that failed to load is never silent.
public enum TextPreview {
    /// What to draw of the page.
    public enum Extent: Sendable, Equatable {
        /// Every row, top to bottom: what a plain render shows.
        case wholePage
        /// The session's viewport (after any scrolling), with its pinned sticky header.
        case screen
    }

    public static func render(_ session: PageSession, extent: Extent, options: TextRenderer.Options) -> String {
        var out = TextOutput()
        write(session, extent: extent, options: options, to: &out)
        return String(decoding: out.expanded, as: UTF8.self)
    }

    package static func write(
        _ session: PageSession, extent: Extent, options: TextRenderer.Options, to out: inout TextOutput
    ) {
        switch extent {
        case .wholePage:
            writeWholePage(session.adapter, options: options, to: &out)
        case .screen:
            writeTitle(session.adapter, options: options, to: &out)
            TextRenderer.write(session.adapter, viewport: session.viewport, options: options, to: &out)
        }
        writeFooter(session, extent: extent, options: options, to: &out)
    }

    /// What `write` writes of the whole page before its last line: the title and every row. The adapter may
    /// measure its rows as the drawing reaches them (Adapter's `.asReached`): PageRender draws a page that
    /// has no next page so, before its session exists, and writes the footer once it does.
    package static func writeWholePage(_ adapter: Adapter, options: TextRenderer.Options, to out: inout TextOutput) {
        writeTitle(adapter, options: options, to: &out)
        TextRenderer.write(adapter, options: options, to: &out)
    }

    /// The last line (`footer`), as `write` ends with it.
    package static func writeFooter(
        _ session: PageSession, extent: Extent, options: TextRenderer.Options, to out: inout TextOutput
    ) {
        TextRenderer.writeLine(footer(session, extent: extent), style: .muted, options: options, to: &out.bytes)
    }

    private static func writeTitle(_ adapter: Adapter, options: TextRenderer.Options, to out: inout TextOutput) {
        if let title = adapter.page.title, !title.isEmpty {
            TextRenderer.writeLine(title, style: .bold, options: options, to: &out.bytes)
            out.bytes.append(0x0A)
        }
    }

    /// The last line: where the screen is (for a viewport) and the next-page status.
    package static func footer(_ session: PageSession, extent: Extent) -> String {
        let status = session.nextPageStatus
        var line = "-- "
        if extent == .screen {
            let v = session.viewport
            line +=
                "screen \(points(v.width))x\(points(v.height)) at y \(points(v.offset)) of \(points(session.adapter.totalHeight)) points; "
        }
        if case .failed = status { line = "!! " + line.dropFirst(3) }
        return line + status.summary + seen(session)
    }

    /// With impressions on: how many items counted, and where they are listed.
    private static func seen(_ session: PageSession) -> String {
        guard session.impressions != nil else { return "" }
        let count = session.events.reduce(0) { count, event in if case .impression = event { count + 1 } else { count }
        }
        return "; \(count) item\(count == 1 ? "" : "s") seen (--format json lists the impression events)"
    }

    private static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
