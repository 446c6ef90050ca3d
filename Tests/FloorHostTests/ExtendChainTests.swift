import FloorCheck
import FloorLayout
import FloorSession
import Foundation
import HostContract
import Testing

/// A chain of next pages that keeps extending one ProductFeed floor costs O(items added) a page: the
/// plugin lists only the appended items' rows (ABI 1.2, floor_row_sink_t.keep), so the rows listed over the
/// whole chain are the chain's rows plus a constant a page, not pages x items already in the floor.
struct ExtendChainTests {
    /// `pages` pages of `perPage` products each, page k's ids following page k - 1's.
    private func chain(pages: Int, perPage: Int, in folder: TemporaryFolder, header: Bool = false) throws -> PageChain {
        try PageChain(
            in: folder, items: (0..<pages).map { k in (0..<perPage).map { "p\(k * perPage + $0)" } }, header: header)
    }

    @Test(arguments: [false, true])
    func rowsListedGrowWithTheRowsAddedNotWithTheFloor(header: Bool) throws {
        let folder = try TemporaryFolder("chain")
        let pages = 60
        let perPage = 5
        let (session, _) = try chain(pages: pages, perPage: perPage, in: folder, header: header).session()
        session.scrollToEnd()
        let adapter = session.adapter
        #expect(session.completions.count == pages - 1)
        // The floor's rows, then the load-state footer (host-drawn, measured once, listed by no plugin).
        #expect(adapter.contentRowCount == pages * perPage + (header ? 1 : 0))
        #expect(adapter.rowCount == adapter.contentRowCount + 1)
        // Every row listed once, plus nothing per page: a full expand each page would list ~9,000.
        #expect(adapter.stats.rowsListed == adapter.contentRowCount, "\(adapter.stats)")
        #expect(adapter.stats.expands == pages)
        // Each row measured once, laid out in order, drawing the right product.
        #expect(adapter.stats.heightCalls == adapter.rowCount)
        #expect(session.feedProductIDs == (0..<(pages * perPage)).map { "p\($0)" })
        var y = 0.0
        for r in 0..<adapter.contentRowCount {
            let row = adapter.describe(row: r)
            #expect(row.y == y && row.row == r)
            y += row.height
        }
        #expect(adapter.describe(row: adapter.rowCount - 1).type == "LoadStateFooter")
        #expect(adapter.totalHeight == y + 44 && adapter.diagnostics.isEmpty)
    }

    /// A bottom margin stays the floor's last row while items go in before it, and repeated ids are dropped
    /// and reported against the page and item that repeated them, on the incremental path too.
    @Test func itemsGoInBeforeTheBottomMarginAndRepeatsAreDropped() throws {
        let folder = try TemporaryFolder("chain-margin")
        func product(_ id: String) -> String { #"{"id":"\#(id)","title":"T \#(id)","price":"¥1","img":"i"}"# }
        try folder.write(
            "page-0.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","margin":{"top":8,"bottom":20},"items":[\#(product("a")),\#(product("b"))]}],"next":"page-1.json"}"#
        )
        try folder.write(
            "page-1.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(product("c")),\#(product("a"))]}],"next":"page-2.json"}"#
        )
        try folder.write(
            "page-2.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(product("d")),\#(product("c"))]}],"next":null}"#)
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let check = PageCheck.run(file: folder.file("page-0.json"), registry: host.registry)
        #expect(
            check.problems.map(\.message) == [
                "\(folder.file("page-1.json")): floors[0].items[1] (floor 'feed'): duplicate item id 'a' dropped (left out)",
                "\(folder.file("page-2.json")): floors[0].items[1] (floor 'feed'): duplicate item id 'c' dropped (left out)",
            ])
        let adapter = try host.layout(page: folder.file("page-0.json"), width: 375)
        for next in ["page-1.json", "page-2.json"] {
            guard case .success(let page) = PageSource(registry: host.registry).load(folder.file(next)) else {
                Issue.record("load")
                return
            }
            adapter.append(page)
        }
        #expect(
            (0..<adapter.rowCount).map { adapter.describe(row: $0).type } == ["ProductFeedMargin"]
                + Array(repeating: "ProductCard", count: 4) + ["ProductFeedMargin"])
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).height } == [8, 108, 108, 108, 108, 20])
        #expect((0..<adapter.rowCount).map { adapter.describe(row: $0).row } == Array(0..<6))
        // 4 rows listed by the first expand, then 2 (one card and the bottom margin) by each extension.
        #expect(adapter.stats.rowsListed == 4 + 2 + 2)
        let draws = RecordingCanvas.record(width: 375, height: 108) { adapter.drawCell(row: 4, into: $0) }
        #expect(draws.contains { if case .textBlock("T d", _, _, _, _, _) = $0 { true } else { false } })
    }
}

/// ABI 1.2's row sink keep, from a plugin written in C against floor_abi.h alone (extend_keep.c).
struct RowSinkKeepTests {
    /// Lays out a Run floor of 3 rows extended by next pages of 2 and 4 rows, with the plugin built with `defines`.
    private func extended(_ defines: [String]) throws -> Adapter {
        let folder = try TemporaryFolder("keep")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("extend_keep.c", to: plugins + "/libRunFloor.so", defines: defines)
        try folder.write("p0.json", #"{"floors":[{"type":"Run","id":"r","count":3}],"next":"p1.json"}"#)
        try folder.write("p1.json", #"{"floors":[{"type":"Run","id":"r","count":2}],"next":"p2.json"}"#)
        try folder.write("p2.json", #"{"floors":[{"type":"Run","id":"r","count":4}],"next":null}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: folder.file("p0.json"), width: 375)
        for next in ["p1.json", "p2.json"] {
            guard case .success(let page) = PageSource(registry: host.registry).load(folder.file(next)) else {
                throw CocoaError(.fileNoSuchFile)
            }
            adapter.append(page)
        }
        return adapter
    }

    @Test(arguments: [([String](), 9), (["NO_KEEP"], 3 + 5 + 9)])
    func keptRowsAreNotListedAgain(defines: [String], listed: Int) throws {
        let adapter = try extended(defines)
        #expect(adapter.rowCount == 9 && adapter.totalHeight == 90)
        #expect((0..<9).map { adapter.describe(row: $0).row } == Array(0..<9))
        #expect(adapter.stats.rowsListed == listed && adapter.diagnostics.isEmpty, "\(adapter.diagnostics)")
    }

    @Test(arguments: [
        ("KEEP_BEYOND", "called keep(8) on the row sink but the host holds 3 rows it could keep; the call is ignored"),
        ("KEEP_AFTER_ADD", "called keep(3) on the row sink after adding rows; the call is ignored"),
    ])
    func aKeepThatBreaksTheRulesIsIgnoredAndNamed(define: String, message: String) throws {
        let adapter = try extended([define])
        let first = try #require(adapter.diagnostics.first)
        #expect(first.message.hasSuffix("floors[0] (floor 'r'): plugin com.example.run \(message)"), "\(first.message)")
        #expect(first.plugin == "com.example.run")
    }
}
