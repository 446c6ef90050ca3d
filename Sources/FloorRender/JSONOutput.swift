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
        try writeRows(adapter, into: &out, emit)
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

    /// The hot loop of `--format json` (a 40,000-row page is 40,000 rows): each row is stored as one or two
    /// JSONRecords (bytes straight into reserved memory), and a full chunk goes to `emit`. The floor ids and
    /// row type names, which repeat on every row, are escaped once up front.
    private func writeRows(
        _ adapter: Adapter, into out: inout JSONWriter, _ emit: ([UInt8]) throws -> Void
    ) rethrows {
        let rows = adapter.rows
        func quoted(_ s: String) -> [UInt8] {
            var w = JSONWriter(capacity: s.utf8.count + 2)
            w.string(s)
            return w.bytes
        }
        let floorIDs = adapter.sections.map { quoted($0.floorID) }
        // A row type name two plugins share says whose it is (ABI 1.5): `"plugin"` right after `"type"`.
        let typeNames = adapter.registry.rowTypes.indices.map { id in
            var name = JSONWriter()
            name.string(adapter.registry.rowTypes[id].name)
            if let plugin = adapter.registry.sharedRowTypePlugin(Int32(id)) {
                name.raw(",\"plugin\":")
                name.string(plugin)
            }
            return name.bytes
        }
        let collectionFloor = adapter.sections.map { $0.collection != nil }
        // Only rows of a type with a pages selector can be in `paged`: the others skip the lookup.
        let pagedType = adapter.registry.rowTypes.map { $0.pages != nil && !paged.isEmpty }
        let numberRoom = JSONRecord.maxNumberBytes
        for r in 0..<rows.count {
            if out.bytes.count >= Self.chunkSize {
                try emit(out.bytes)
                out.removeAll()
            }
            let row = rows[r]
            let floorID = floorIDs[Int(row.section)]
            let typeName = typeNames[Int(row.type)]
            // Up to "height", then the rest after a placeholder's reason (escaped by `string`: its own room).
            out.record(upTo: 64 + 4 * numberRoom + floorID.count + typeName.count) { record in
                record.raw(r > 0 ? ",{\"section\":" : "{\"section\":")
                record.number(Int(row.section))
                record.raw(",\"row\":")
                record.number(Int(row.index))
                record.raw(",\"floor\":")
                record.raw(floorID)
                record.raw(",\"type\":")
                record.raw(typeName)
                record.raw(",\"y\":")
                record.number(row.top)
                record.raw(",\"height\":")
                record.number(row.height)
            }
            if let reason = adapter.unusableHeightReason(row: row) {
                // Its height calculator gave no height (ABI 1.5's height rule): the host drew a placeholder.
                out.raw(",\"placeholder\":")
                out.string(reason)
            }
            let collection = collectionFloor[Int(row.section)]
            let frame = collection ? adapter.frame(of: r) : nil
            let column = collection ? adapter.column(of: r) : nil
            let taps = !tappable.isEmpty && tappable[r] >= 0 ? Int(tappable[r]) : nil
            let pages = pagedType[Int(row.type)] ? paged[r] : nil
            out.record(upTo: 128 + 6 * numberRoom) { record in
                if let frame {
                    // A collection floor's rows carry their frame across the page (ABI 1.5): x and width, and
                    // the column an item was placed in (null for a full-width row of the floor).
                    record.raw(",\"x\":")
                    record.number(frame.x)
                    record.raw(",\"width\":")
                    record.number(frame.width)
                    record.raw(",\"column\":")
                    if let column { record.number(column) } else { record.raw("null") }
                }
                if row.flags & FLOOR_ROW_HEADER != 0 {
                    record.raw(
                        row.flags & FLOOR_ROW_STICKY != 0
                            ? ",\"header\":true,\"sticky\":true" : ",\"header\":true,\"sticky\":false")
                } else if row.flags & FLOOR_ROW_STICKY != 0 {
                    record.raw(",\"sticky\":true")  // a plugin's own sticky row (not a title header)
                }
                if let taps {
                    record.raw(",\"tappable\":")
                    record.number(taps)
                }
                // A carousel (docs/ABI.md, "Paged rows"): how many pages, and the one drawn.
                if let (count, shown) = pages {
                    record.raw(",\"pages\":")
                    record.number(Int(count))
                    record.raw(",\"page\":")
                    record.number(Int(shown))
                }
                record.byte(UInt8(ascii: "}"))
            }
        }
    }
}
