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
        try out.object { o in
            o.member("page", adapter.page.file)
            o.member("width", adapter.width)
            o.member("height", adapter.totalHeight)
            o.member("next", session.next)
            if let footer = adapter.footer, let row = adapter.footerRow {
                o.object("footer") { f in
                    f.member("row", row)
                    f.member("state", footer.stateName)
                    f.member("text", footer.text)
                    switch footer.state {
                    case .more(let page), .loading(let page):
                        f.member("page", page)
                    case .failed(let page, let reason):
                        f.member("page", page)
                        f.member("reason", reason)
                    case .stopped(let reason):
                        f.member("reason", reason)
                    case .end: break
                    }
                }
            }
            o.array("plugins", plugins) { plugin, out in
                out.object { p in
                    p.member("id", plugin.id)
                    p.member("name", plugin.name)
                    p.member("version", plugin.version)
                    p.member("path", plugin.path)
                }
            }
            o.object("viewport") { v in
                v.member("offset", viewport.offset)
                v.member("height", viewport.height)
                v.array("visibleRows", visible) { r, out in out.number(r) }
                v.member("pinned", pinned?.floor)
                if let pinned {
                    v.member("pinnedRow", pinned.row)
                    v.member("pinnedY", pinned.y)
                }
            }
            o.key("rows")
            o.writer.raw("[")
            try JSONRows(adapter, tappable: tappable, paged: paged).write(into: &o.writer, emit)
            o.writer.raw("]")
            o.array("cells", visible.indices) { i, out in
                out.object { c in
                    c.member("row", visible[i])
                    c.key("draws")
                    c.writer.raw("[")
                    c.writer.raw(cells[i])
                    c.writer.raw("]")
                }
            }
            o.key("diagnostics")
            o.writer.diagnostics(diagnostics)
            o.array("events", session.events) { event, out in JSONRenderer.write(event, into: &out) }
            o.object("stats") { s in
                s.member("heightCalls", adapter.stats.heightCalls)
                s.member("cellCalls", adapter.stats.cellCalls)
                s.member("reloads", adapter.stats.reloads)
                s.member("heightsKept", adapter.stats.heightsKept)
                JSONRenderer.writeFontSet(into: &s)
            }
        }
        out.raw("\n")
        try emit(out.bytes)
    }
}
