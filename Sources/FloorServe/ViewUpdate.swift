import FloorCore
import FloorLayout
import FloorRender
import FloorSession

/// The answer to a tab's view report, one JSON object:
///
///     {"version":n, "height":total, "scrollTo":y?, "rows":[{"index","y","height","tag","tappable"?,"frames"?,"html"?}...],
///      "pinned":{"index","y","tag","html"?}|null, "load":{"state","page"?,"reason"?,"retryIn"?},
///      "events":[...new since the last answer...], "diagnostics":[...]?}
///
/// or, while the page does not parse, `{"version", "error":"file:line:column: ...", "source":{"line",
/// "text","caret"}?, "diagnostics":[...]?}` (the tab keeps what it drew under the error).
///
/// `rows` are the rows within one screen above and below the viewport (all the tab draws: the answer's size
/// is proportional to the screen, never to the page). Only what the tab lacks is drawn: a row (or the pinned
/// row) the tab reports holding under the tag it has now (`held`, HeldRows) comes as its position and tag
/// alone, so an answer to a tab that scrolled a little carries the rows that came into reach and little else.
/// `diagnostics` come only when the tab's layout version is not the current one (one problem at many places
/// as one, Diagnostic.grouped). `load.state` is idle, loading (with `retryIn` seconds and the last `reason`
/// while a retry by --retry waits), failed (with the reason; the tab offers retry) or end. `scrollTo` comes once after a reload moved the content the tab showed: where to scroll to
/// stay on it. Events and diagnostics are written as `--format json` writes them, with page files named
/// relative to the served root (`paths`).
package enum ViewUpdate {
    package static func json(
        _ preview: PreviewSession, knownVersion: Int, held: HeldRows = HeldRows(), paths: RootRelativePaths,
        images: ImageLinks? = nil
    ) -> [UInt8] {
        var out = JSONWriter(capacity: 16_384)
        out.raw("{")
        out.key("version")
        out.number(preview.version)
        if knownVersion != preview.version {
            out.raw(",")
            out.key("diagnostics")
            out.diagnostics(preview.diagnostics.map { paths($0) })
        }
        guard preview.error == nil, let session = preview.session else {
            out.raw(",")
            out.key("error")
            out.string(paths(preview.error?.description ?? "the page did not decode"))
            if let line = preview.errorLine {
                out.raw(",")
                out.key("source")
                out.raw("{")
                out.key("line")
                out.number(line.line)
                out.raw(",")
                out.key("text")
                out.string(line.text)
                out.raw(",")
                out.key("caret")
                out.number(line.caret)
                out.raw("}")
            }
            out.raw("}")
            return out.bytes
        }
        let adapter = session.adapter
        let viewport = session.viewport
        out.raw(",")
        out.key("height")
        out.number(adapter.totalHeight)
        if let scrollTo = preview.scrollTo {
            out.raw(",")
            out.key("scrollTo")
            out.number(scrollTo)
            preview.scrollTo = nil
        }
        out.raw(",")
        out.key("rows")
        out.raw("[")
        let near = Viewport(
            width: viewport.width, height: viewport.height * 3, offset: max(0, viewport.offset - viewport.height))
        let nearRows = adapter.visibleRows(in: near)
        let pinned = adapter.pinnedHeader(in: viewport)
        preview.keepTags(of: nearRows, pinned: pinned?.row)
        for r in nearRows {
            if r > nearRows.lowerBound { out.raw(",") }
            let info = adapter.describe(row: r)
            out.raw("{")
            out.key("index")
            out.number(r)
            out.raw(",")
            out.key("y")
            out.number(info.y)
            out.raw(",")
            out.key("height")
            out.number(info.height)
            drawing(preview, adapter, r, held: held, images: images, paths: paths, into: &out)
            out.raw("}")
        }
        out.raw("],")
        out.key("pinned")
        if let pinned {
            out.raw("{")
            out.key("index")
            out.number(pinned.row)
            out.raw(",")
            out.key("y")
            out.number(pinned.y)
            out.raw(",")
            out.key("tag")
            let tag = preview.tag(ofRow: pinned.row) ?? drawn(preview, adapter, pinned.row, images, paths).tag
            out.string(tag)
            if !held.holdsPinned(pinned.row, as: tag) {
                out.raw(",")
                out.key("html")
                out.string(preview.rowHTML(pinned.row, images: images, paths: paths))
            }
            out.raw("}")
        } else {
            out.raw("null")
        }
        out.raw(",")
        out.key("load")
        out.raw("{")
        out.key("state")
        switch session.loadMore.state {
        case .idle where session.next != nil: out.string("idle")
        case .idle, .exhausted: out.string("end")
        case .loading(let page):
            out.string("loading")
            out.raw(",")
            out.key("page")
            out.string(paths(page))
            // A failed attempt whose retry (--retry) waits: when, and why the last one failed.
            if let due = session.retryDue, let reason = session.retryReason {
                out.raw(",")
                out.key("retryIn")
                out.number(max(0, due - session.clock.now))
                out.raw(",")
                out.key("reason")
                out.string(paths(reason))
            }
        case .failed(let page, let reason):
            out.string("failed")
            out.raw(",")
            out.key("page")
            out.string(paths(page))
            out.raw(",")
            out.key("reason")
            out.string(paths(reason))
        case .stopped(let stop):
            out.string("stopped")
            out.raw(",")
            out.key("reason")
            out.string(paths(stop.reason))
        }
        out.raw("},")
        // The session keeps its newest events (PageSession.eventLimit); those dropped before this tab was
        // sent them are counted, not sent.
        out.key("eventsDropped")
        out.number(max(0, session.droppedEvents - preview.eventsSent))
        out.raw(",")
        out.key("events")
        out.raw("[")
        let events = session.events
        let first = max(preview.eventsSent, session.droppedEvents) - session.droppedEvents
        for i in min(first, events.count)..<events.count {
            if i > first { out.raw(",") }
            JSONRenderer.write(paths(events[i]), into: &out)
        }
        preview.eventsSent = session.eventCount
        out.raw("]}")
        return out.bytes
    }

    /// Row `r`'s `,"tag":...` and, unless the tab holds it under that tag, what draws it.
    private static func drawing(
        _ preview: PreviewSession, _ adapter: Adapter, _ r: Int, held: HeldRows, images: ImageLinks?,
        paths: RootRelativePaths, into out: inout JSONWriter
    ) {
        out.raw(",")
        out.key("tag")
        if let tag = preview.tag(ofRow: r), held.holds(r, as: tag) {
            out.string(tag)
            return
        }
        let (tag, bytes) = drawn(preview, adapter, r, images, paths)
        out.string(tag)
        if held.holds(r, as: tag) { return }
        out.raw(",")
        out.raw(bytes)
    }

    /// What draws row `r` in an answer (`"tappable":n,"frames":[...],"html":"..."`) and its tag, which the
    /// session keeps for the current layout version.
    private static func drawn(
        _ preview: PreviewSession, _ adapter: Adapter, _ r: Int, _ images: ImageLinks?, _ paths: RootRelativePaths
    ) -> (tag: String, bytes: JSONWriter) {
        var out = JSONWriter(capacity: 2_048)
        out.key("tappable")
        out.number(adapter.tappableItems(row: r))
        // Where each tappable item shown is (docs/ABI.md, "Item frames"): what the tab outlines on a tap.
        out.raw(",")
        out.key("frames")
        out.raw("[")
        for (k, frame) in adapter.itemFrames(row: r).enumerated() {
            out.raw(k > 0 ? ",{\"item\":" : "{\"item\":")
            out.number(frame.item)
            out.raw(",\"x\":")
            out.number(frame.x)
            out.raw(",\"y\":")
            out.number(frame.y)
            out.raw(",\"width\":")
            out.number(frame.width)
            out.raw(",\"height\":")
            out.number(frame.height)
            out.raw("}")
        }
        out.raw("],")
        out.key("html")
        out.string(preview.rowHTML(r, images: images, paths: paths))
        let tag = HeldRows.tag(of: out.bytes)
        preview.remember(tag, ofRow: r)
        return (tag, out)
    }
}
