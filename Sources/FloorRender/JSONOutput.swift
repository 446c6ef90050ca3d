import CFloorABI
import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession

/// `--format json`, every plugin answer already asked (JSONRenderer.prepare), written in chunks of about
/// `chunkSize` bytes (a pipe's capacity): a 43,000-row page is 4 MB of output, which is never held whole (issue 23's
/// peak memory).
public struct JSONOutput {
    /// What `write` hands its sink at a time (the last chunk may be shorter).
    public static let chunkSize = 1 << 16

    let session: PageSession
    let plugins: [PluginInfo]
    let diagnostics: [Diagnostic]
    let visible: [Int]
    /// The draws of each visible row's cell, in `visible`'s order.
    let cells: [JSONWriter]
    /// Per row: its tappable items (-1: its type has no tap selector).
    let tappable: [Int32]
    /// The rows showing more than one page (carousels, a few a page), with their page count and the page
    /// shown: kept for those alone rather than 8 bytes for each of a feed's rows.
    let paged: [Int: (count: Int32, shown: Int32)]

    init(session: PageSession, plugins: [PluginInfo], diagnostics: [Diagnostic]) {
        let adapter = session.adapter
        (self.session, self.plugins, self.diagnostics) = (session, plugins, diagnostics)
        visible = adapter.rowsOnScreen(in: session.viewport)
        cells = visible.map { r in
            let canvas = JSONCanvas()
            adapter.drawCell(row: r, into: canvas)
            return canvas.out
        }
        let types = adapter.registry.rowTypes
        let rows = adapter.rows
        let anyTappable = types.contains { $0.tappable != nil }
        let anyPaged = types.contains { $0.pages != nil }
        tappable = anyTappable ? adapter.tappableCounts() : []
        var paged: [Int: (count: Int32, shown: Int32)] = [:]
        if anyPaged {
            for r in 0..<rows.count where types[Int(rows[r].type)].pages != nil {
                // Both asked of every paged row, as before: the same plugin calls whatever is kept.
                let (count, shown) = (Int32(adapter.pageCount(ofRow: r)), Int32(adapter.page(ofRow: r)))
                if count > 1 { paged[r] = (count, shown) }
            }
        }
        self.paged = paged
    }

    /// Hands the output to `emit` chunk by chunk, in order; runs no plugin code. Stops at `emit`'s first error.
    public func write(_ emit: ([UInt8]) throws -> Void) rethrows {
        let adapter = session.adapter
        let viewport = session.viewport
        let visible = self.visible
        let pinned = adapter.pinnedHeader(in: viewport)
        var out = JSONWriter(capacity: Self.chunkSize + 4096)
        out.raw("{")
        out.key("page")
        out.string(adapter.page.file)
        out.raw(",")
        out.key("width")
        out.number(adapter.width)
        out.raw(",")
        out.key("height")
        out.number(adapter.totalHeight)
        out.raw(",")
        out.key("next")
        out.optional(session.next)
        if let footer = adapter.footer, let row = adapter.footerRow {
            out.raw(",")
            out.key("footer")
            out.raw("{")
            out.key("row")
            out.number(row)
            out.raw(",")
            out.key("state")
            out.string(footer.stateName)
            out.raw(",")
            out.key("text")
            out.string(footer.text)
            switch footer.state {
            case .more(let page), .loading(let page):
                out.raw(",")
                out.key("page")
                out.string(page)
            case .failed(let page, let reason):
                out.raw(",")
                out.key("page")
                out.string(page)
                out.raw(",")
                out.key("reason")
                out.string(reason)
            case .stopped(let reason):
                out.raw(",")
                out.key("reason")
                out.string(reason)
            case .end: break
            }
            out.raw("}")
        }
        out.raw(",")
        out.key("plugins")
        out.raw("[")
        for (i, plugin) in plugins.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("id")
            out.string(plugin.id)
            out.raw(",")
            out.key("name")
            out.string(plugin.name)
            out.raw(",")
            out.key("version")
            out.string(plugin.version)
            out.raw(",")
            out.key("path")
            out.string(plugin.path)
            out.raw("}")
        }
        out.raw("],")
        out.key("viewport")
        out.raw("{")
        out.key("offset")
        out.number(viewport.offset)
        out.raw(",")
        out.key("height")
        out.number(viewport.height)
        out.raw(",")
        out.key("visibleRows")
        out.raw("[")
        for (i, r) in visible.enumerated() {
            if i > 0 { out.raw(",") }
            out.number(r)
        }
        out.raw("],")
        out.key("pinned")
        out.optional(pinned?.floor)
        if let pinned {
            out.raw(",")
            out.key("pinnedRow")
            out.number(pinned.row)
            out.raw(",")
            out.key("pinnedY")
            out.number(pinned.y)
        }
        out.raw("},")
        out.key("rows")
        out.raw("[")
        try JSONRows(adapter, tappable: tappable, paged: paged).write(into: &out, emit)
        out.raw("],")
        out.key("cells")
        out.raw("[")
        for (i, r) in visible.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("row")
            out.number(r)
            out.raw(",")
            out.key("draws")
            out.raw("[")
            out.raw(cells[i])
            out.raw("]}")
        }
        out.raw("],")
        out.key("diagnostics")
        out.diagnostics(diagnostics)
        out.raw(",")
        out.key("events")
        out.raw("[")
        for (i, event) in session.events.enumerated() {
            if i > 0 { out.raw(",") }
            JSONRenderer.write(event, into: &out)
        }
        out.raw("],")
        out.key("stats")
        out.raw("{")
        out.key("heightCalls")
        out.number(adapter.stats.heightCalls)
        out.raw(",")
        out.key("cellCalls")
        out.number(adapter.stats.cellCalls)
        out.raw(",")
        out.key("reloads")
        out.number(adapter.stats.reloads)
        out.raw(",")
        out.key("heightsKept")
        out.number(adapter.stats.heightsKept)
        out.raw(",")
        JSONRenderer.writeFontSet(into: &out)
        out.raw("}}\n")
        try emit(out.bytes)
    }
}
