import CFloorABI
import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import FloorText

/// The machine-readable output (ARCHITECTURE.md, "Output contract"): one object with `rows`, `diagnostics`,
/// `events`, the `viewport` (final offset, visible rows, pinned header), the `cells` drawn for the visible
/// rows, and `stats` (selector calls, so tests can prove what is cached). Field order is fixed so output
/// diffs cleanly.
public enum JSONRenderer {
    public static func render(_ session: PageSession, plugins: [PluginInfo], diagnostics: [Diagnostic]) -> [UInt8] {
        let adapter = session.adapter
        let viewport = session.viewport
        let visible = adapter.rowsOnScreen(in: viewport)
        let pinned = adapter.pinnedHeader(in: viewport)
        var out = JSONWriter(capacity: 512 + adapter.rowCount * 100)
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
        writeRows(adapter, into: &out)
        out.raw("],")
        out.key("cells")
        out.raw("[")
        for (i, r) in visible.enumerated() {
            if i > 0 { out.raw(",") }
            let canvas = JSONCanvas()
            adapter.drawCell(row: r, into: canvas)
            out.raw("{")
            out.key("row")
            out.number(r)
            out.raw(",")
            out.key("draws")
            out.raw("[")
            out.raw(canvas.out)
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
            write(event, into: &out)
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
        writeFontSet(into: &out)
        out.raw("}}\n")
        return out.bytes
    }

    /// `"fonts":{"name":...,"files":[{"file","package","version","sha256"}]}`: the font set real text is
    /// measured with (Fonts.lock; docs/ABI.md, "Text layout"), so two outputs say whether they can agree.
    private static func writeFontSet(into out: inout JSONWriter) {
        out.key("fonts")
        out.raw("{")
        out.key("name")
        out.string(FontSet.name)
        out.raw(",")
        out.key("files")
        out.raw("[")
        for (i, file) in FontSet.files.enumerated() {
            if i > 0 { out.raw(",") }
            out.raw("{")
            out.key("file")
            out.string(file.fileName)
            out.raw(",")
            out.key("package")
            out.string(file.package)
            out.raw(",")
            out.key("version")
            out.string(file.version)
            out.raw(",")
            out.key("sha256")
            out.string(file.sha256)
            out.raw("}")
        }
        out.raw("]}")
    }

    /// The hot loop of `--format json` (a 40,000-row page is 40,000 rows): each row is a few bulk appends.
    /// Keys and punctuation are written as one literal each, and the floor ids and row type names, which
    /// repeat on every row, are escaped once up front.
    private static func writeRows(_ adapter: Adapter, into out: inout JSONWriter) {
        let rows = adapter.rows
        func quoted(_ s: String) -> JSONWriter {
            var w = JSONWriter(capacity: s.utf8.count + 2)
            w.string(s)
            return w
        }
        let floorIDs = adapter.sections.map { quoted($0.floorID) }
        // A row type name two plugins share says whose it is (ABI 1.5): `"plugin"` right after `"type"`.
        let typeNames = adapter.registry.rowTypes.indices.map { id in
            var name = quoted(adapter.registry.rowTypes[id].name)
            if let plugin = adapter.registry.sharedRowTypePlugin(Int32(id)) {
                name.raw(",\"plugin\":")
                name.string(plugin)
            }
            return name
        }
        let tappable = adapter.registry.rowTypes.map { $0.tappable != nil }
        let paged = adapter.registry.rowTypes.map { $0.pages != nil }
        let collectionFloor = adapter.sections.map { $0.collection != nil }
        for r in 0..<rows.count {
            let row = rows[r]
            out.raw(r > 0 ? ",{\"section\":" : "{\"section\":")
            out.number(Int(row.section))
            out.raw(",\"row\":")
            out.number(Int(row.index))
            out.raw(",\"floor\":")
            out.raw(floorIDs[Int(row.section)])
            out.raw(",\"type\":")
            out.raw(typeNames[Int(row.type)])
            out.raw(",\"y\":")
            out.number(row.top)
            out.raw(",\"height\":")
            out.number(row.height)
            if let reason = adapter.unusableHeightReason(row: row) {
                // Its height calculator gave no height (ABI 1.5's height rule): the host drew a placeholder.
                out.raw(",\"placeholder\":")
                out.string(reason)
            }
            if collectionFloor[Int(row.section)] {
                // A collection floor's rows carry their frame across the page (ABI 1.5): x and width, and the
                // column an item was placed in (null for a full-width row of the floor).
                let frame = adapter.frame(of: r)
                out.raw(",\"x\":")
                out.number(frame.x)
                out.raw(",\"width\":")
                out.number(frame.width)
                out.raw(",\"column\":")
                if let column = adapter.column(of: r) { out.number(column) } else { out.raw("null") }
            }
            if row.flags & FLOOR_ROW_HEADER != 0 {
                out.raw(
                    row.flags & FLOOR_ROW_STICKY != 0
                        ? ",\"header\":true,\"sticky\":true" : ",\"header\":true,\"sticky\":false")
            } else if row.flags & FLOOR_ROW_STICKY != 0 {
                out.raw(",\"sticky\":true")  // a plugin's own sticky row (not a title header)
            }
            if tappable[Int(row.type)] {
                out.raw(",\"tappable\":")
                out.number(adapter.tappableItems(row: r))
            }
            // A carousel (docs/ABI.md, "Paged rows"): how many pages, and the one drawn.
            if paged[Int(row.type)], case let pages = adapter.pageCount(ofRow: r), pages > 1 {
                out.raw(",\"pages\":")
                out.number(pages)
                out.raw(",\"page\":")
                out.number(adapter.page(ofRow: r))
            }
            out.raw("}")
        }
    }

    /// One event as the `events` array carries it.
    public static func write(_ event: Event, into out: inout JSONWriter) {
        func loadMore(_ phase: StaticString, _ row: Int?, _ page: String) {
            out.raw("{")
            out.key("kind")
            out.string("loadMore")
            out.raw(",")
            out.key("phase")
            out.raw("\"")
            out.raw(phase)
            out.raw("\"")
            out.raw(",")
            out.key("row")
            if let row { out.number(row) } else { out.raw("null") }
            out.raw(",")
            out.key("page")
            out.string(page)
        }
        switch event {
        case .willDisplay(let row, let section, let sectionRow, let floor):
            out.raw("{")
            out.key("kind")
            out.string("willDisplay")
            out.raw(",")
            out.key("row")
            out.number(row)
            out.raw(",")
            out.key("section")
            out.number(section)
            out.raw(",")
            out.key("sectionRow")
            out.number(sectionRow)
            out.raw(",")
            out.key("floor")
            out.string(floor)
        case .loadMoreRequested(let row, let page):
            loadMore("requested", row, page)
        case .loadMoreCompleted(let row, let page, let added):
            loadMore("completed", row, page)
            out.raw(",")
            out.key("rowsAdded")
            out.number(added)
        case .loadMoreFailed(let row, let page, let reason):
            loadMore("failed", row, page)
            out.raw(",")
            out.key("reason")
            out.string(reason)
        case .reloaded(let floors, let kept, let measured):
            out.raw("{")
            out.key("kind")
            out.string("reload")
            out.raw(",")
            out.key("floorsChanged")
            out.number(floors)
            out.raw(",")
            out.key("rowsKept")
            out.number(kept)
            out.raw(",")
            out.key("rowsMeasured")
            out.number(measured)
        case .impression(let seen):
            out.raw("{")
            out.key("kind")
            out.string("impression")
            out.raw(",")
            out.key("floor")
            out.string(seen.floor)
            out.raw(",")
            out.key("item")
            if let item = seen.item { out.number(item) } else { out.raw("null") }
            out.raw(",")
            out.key("itemId")
            out.optional(seen.itemID)
            out.raw(",")
            out.key("row")
            out.number(seen.row)
            out.raw(",")
            out.key("section")
            out.number(seen.section)
            out.raw(",")
            out.key("sectionRow")
            out.number(seen.sectionRow)
            out.raw(",")
            out.key("type")
            out.string(seen.type)
            out.raw(",")
            out.key("fraction")
            out.number((seen.fraction * 1000).rounded() / 1000)
            out.raw(",")
            out.key("visibleMs")
            out.number(seen.visibleMilliseconds)
            out.raw(",")
            out.key("atMs")
            out.number(seen.at)
        }
        out.raw("}")
    }
}
