import CFloorABI
import FloorCore
import FloorRuntime
import HostContract

/// A row of a floor, named so that it stays the same row while next pages and reloads renumber the page's
/// rows: what the page a paged row shows is kept by.
package struct PagedRow: Hashable, Sendable {
    package let floor: String
    package let row: Int
}

/// Horizontally paged rows, carousels (docs/ABI.md, "Paged rows"): a row type's optional `pages` selector
/// says how many pages a row shows; the cell draws the page in `floor_canvas_t.page`, reporting the frames of
/// that page's items; items are numbered across all pages. Which page each row shows is the session's
/// (PageSession.showPage), kept here where cells are drawn so that every output draws the same page.
extension Adapter {
    /// How many horizontal pages row `r` has: 1 when its row type has no pages selector or answers 0 or 1;
    /// an answer past FLOOR_PAGES_MAX is the plugin's error (named once per row type) and the row is not
    /// paged.
    public func pageCount(ofRow r: Int) -> Int {
        let row = rows[r]
        let type = registry.rowTypes[Int(row.type)]
        guard let pages = type.pages, row.unusableHeight == nil else { return 1 }
        let answer: UInt64 = registry.crashRecord.withPluginCall(.pages, on: origins[Int(row.section)]) {
            guard
                case .uint(let count)? = try? pages.invoker.perform(
                    .pointer(type.context), .pointer(models[Int(row.section)]), .uint(UInt64(row.index)))
            else { return 1 }
            return count
        }
        guard answer > UInt64(FLOOR_PAGES_MAX) else { return max(1, Int(answer)) }
        if pagesOverflowReported.insert(row.type).inserted {
            let info = describe(row: r)
            let plugin = type.plugin >= 0 ? registry.plugins[type.plugin].id : "?"
            report(
                Diagnostic(
                    .error,
                    "plugin \(plugin)'s pages selector \(pages.name) returned \(answer) for row \(info.section):\(info.row) ('\(type.name)' of floor '\(info.floor)'), more than FLOOR_PAGES_MAX (\(FLOOR_PAGES_MAX)); rows of this type are not paged",
                    plugin: plugin))
        }
        return 1
    }

    /// The page row `r` shows: 0 until a front end turned it, and never past its last page (a reload that
    /// left a carousel fewer banners shows its last).
    public func page(ofRow r: Int) -> Int {
        guard !shownPages.isEmpty, let shown = shownPages[pagedRow(r)] else { return 0 }
        return min(shown, pageCount(ofRow: r) - 1)
    }

    /// Shows page `page` of row `r` (clamped to its pages) and returns the page it shows now.
    @discardableResult
    package func showPage(_ page: Int, ofRow r: Int) -> Int {
        let shown = max(0, min(page, pageCount(ofRow: r) - 1))
        shownPages[pagedRow(r)] = shown == 0 ? nil : shown
        drawnFrames[r] = nil
        return shown
    }

    private func pagedRow(_ r: Int) -> PagedRow {
        let row = rows[r]
        return PagedRow(floor: sections[Int(row.section)].floorID, row: Int(row.index))
    }
}
