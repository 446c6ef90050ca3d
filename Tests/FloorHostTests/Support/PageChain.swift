import FloorSession
import Foundation

/// Writes a chain of pages for load-more tests: page k holds a ProductFeed floor "feed" whose items are
/// `items[k]` (product ids), extended page by page; page k links to page k + 1; the last links nowhere.
/// `extra[k]` floors (JSON objects) are added after the feed on page k.
struct PageChain {
    let folder: TemporaryFolder
    let files: [String]

    init(
        in folder: TemporaryFolder, items: [[String]], extra: [Int: [String]] = [:], first: String = "page-0.json",
        header: Bool = false
    ) throws {
        self.folder = folder
        var files: [String] = []
        for (k, ids) in items.enumerated() {
            let name = k == 0 ? first : "page-\(k).json"
            let products = ids.map {
                #"{"id":"\#($0)","title":"Product \#($0)","price":"¥\#(k).00","img":"p/\#($0).jpg","jump":{"url":"app://product/\#($0)"}}"#
            }
            let head = header && k == 0 ? #","header":{"title":"Feed","sticky":true}"# : ""
            var floors = [#"{"type":"ProductFeed","id":"feed"\#(head),"items":[\#(products.joined(separator: ","))]}"#]
            floors += extra[k] ?? []
            let next = k + 1 < items.count ? "\"page-\(k + 1).json\"" : "null"
            try folder.write(name, #"{"floors":[\#(floors.joined(separator: ","))],"next":\#(next)}"#)
            files.append(folder.file(name))
        }
        self.files = files
    }

    /// Loads the shipped plugins (copies private to this test) and opens a session on the first page.
    func session(viewport: Double = 812, distance: Int = 4, immediate: Bool = true, retries: Int = 0) throws -> (
        PageSession, FloorHost
    ) {
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: files[0], width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: viewport, source: PageSource(registry: host.registry),
            distance: distance, retries: retries, deliversLoadsImmediately: immediate)
        return (session, host)
    }
}

extension PageSession {
    var requests: [String] {
        events.compactMap { if case .loadMoreRequested(_, let page) = $0 { return page } else { return nil } }
    }
    var completions: [String] {
        events.compactMap { if case .loadMoreCompleted(_, let page, _) = $0 { return page } else { return nil } }
    }
    var failures: [String] {
        events.compactMap { if case .loadMoreFailed(_, _, let reason) = $0 { return reason } else { return nil } }
    }
    var displayedRows: [Int] {
        events.compactMap { if case .willDisplay(let row, _, _, _) = $0 { return row } else { return nil } }
    }
    /// The product ids of the feed's cards, in row order, read back through the tap actions.
    var feedProductIDs: [String] {
        (0..<adapter.rowCount).compactMap { r -> String? in
            let row = adapter.describe(row: r)
            guard row.type == "ProductCard", case .success(let action) = adapter.tap(section: row.section, row: row.row)
            else { return nil }
            return action.params.first { $0.key == "productId" }?.value
        }
    }
}
