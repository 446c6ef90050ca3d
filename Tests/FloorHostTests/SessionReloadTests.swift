import FloorLayout
import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import Testing

/// PageSession.reload: the screen stays on the same content, next pages already loaded stay loaded (read
/// again along the chain as it is now), and the reload's work shows in the events and stats.
struct SessionReloadTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// A session on `file` (a 300-point screen) with the shipped plugins.
    private func session(on file: String) throws -> (PageSession, FloorHost) {
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: file, width: 375)
        return (PageSession(adapter: adapter, viewportHeight: 300, source: PageSource(registry: host.registry)), host)
    }

    private func products(_ ids: [String], price: String = "¥1") -> String {
        ids.map {
            #"{"id":"\#($0)","title":"T \#($0)","price":"\#(price)","img":"i.jpg","jump":{"url":"app://p/\#($0)"}}"#
        }.joined(separator: ",")
    }

    /// The product id of the card at the viewport's top, read back through its tap action.
    private func productAtTop(_ session: PageSession) -> String? {
        guard let r = session.adapter.row(at: session.viewport.offset) else { return nil }
        let row = session.adapter.describe(row: r)
        guard case .success(let action) = session.adapter.tap(section: row.section, row: row.row) else { return nil }
        return action.params.first { $0.key == "productId" }?.value
    }

    @Test func theScreenStaysOnTheSameContentWhenAFloorIsInsertedAbove() throws {
        let ids = (0..<30).map { "p\($0)" }
        let file = try folder.write(
            "home.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Top"},{"type":"ProductFeed","id":"f","items":[\#(products(ids))]}]}"#
        )
        let (session, _) = try session(on: file)
        // A Title bar is 42 points (a 22-point headline line and 10 of padding each side), 62 with a subtitle.
        session.scroll(to: 42 + 20 * 108 + 30)
        #expect(productAtTop(session) == "p20")
        try folder.write(
            "home.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Top"},{"type":"Title","id":"new","title":"New","subtitle":"s"},{"type":"ProductFeed","id":"f","items":[\#(products(ids))]}]}"#
        )
        let calls = session.adapter.stats.heightCalls
        let diff = try session.reload()
        #expect(diff.floors.map(\.change) == [.inserted])
        #expect(session.adapter.stats.heightCalls == calls + 1)
        #expect(
            session.viewport.offset == 42 + 62 + 20 * 108 + 30,
            "62 points further down: the same card, 30 points into it")
        #expect(productAtTop(session) == "p20")
        // Rows that stayed on screen and unchanged are not announced again; the event says what happened.
        let reloadAt = try #require(session.events.lastIndex { if case .reloaded = $0 { true } else { false } })
        #expect(session.events[reloadAt] == .reloaded(floorsChanged: 1, rowsKept: 31, rowsMeasured: 1))
        #expect(session.events[(reloadAt + 1)...].allSatisfy { if case .willDisplay = $0 { false } else { true } })
    }

    /// A feed's load-state footer is not content: a reload diffs the floors' rows only, and the footer stays
    /// the last row, at its height, measured never.
    @Test func aFeedKeepsItsFooterLastThroughAReload() throws {
        let ids = (0..<10).map { "p\($0)" }
        try folder.write("next.json", #"{"floors":[{"type":"ProductFeed","id":"g","items":[\#(products(["n1"]))]}]}"#)
        let file = try folder.write(
            "home.json", #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids))]}],"next":"next.json"}"#
        )
        let (session, _) = try session(on: file)
        #expect(session.adapter.footerRow == 10)
        try folder.write(
            "home.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids + ["p10"]))]}],"next":"next.json"}"#)
        let calls = session.adapter.stats.heightCalls
        let diff = try session.reload()
        #expect(
            diff.rowsMeasured == 1 && session.adapter.stats.heightCalls == calls + 1,
            "the new card only, not the footer")
        #expect(session.adapter.rowCount == 12 && session.adapter.footerRow == 11)
        let footer = session.adapter.describe(row: 11)
        #expect(footer.type == "LoadStateFooter" && footer.height == 44)
        #expect(footer.y + footer.height == session.adapter.totalHeight)
    }

    @Test func whenTheRowAtTheTopIsDeletedTheScreenGoesToTheRowAfterIt() throws {
        let ids = (0..<30).map { "p\($0)" }
        let file = try folder.write(
            "home.json", #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids))]}]}"#)
        let (session, _) = try session(on: file)
        session.scroll(to: 10 * 108 + 50)
        try folder.write(
            "home.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids.filter { $0 != "p10" }))]}]}"#)
        try session.reload()
        #expect(productAtTop(session) == "p11")
        #expect(session.viewport.offset == 10 * 108)
    }

    @Test func nextPagesAlreadyLoadedAreReadAgainAndStayLoaded() throws {
        let chain = try PageChain(in: folder, items: [["a", "b", "c"], ["d", "e"], ["f", "g"]])
        let (session, _) = try chain.session(viewport: 200)
        session.scrollToEnd()
        #expect(session.adapter.pages.count == 3)
        let offset = session.viewport.offset
        // An edit on the second page: one price.
        let page1 = try String(contentsOfFile: chain.files[1], encoding: .utf8)
        try page1.replacingOccurrences(
            of: #""price":"¥1.00","img":"p/e.jpg""#, with: #""price":"¥2.00","img":"p/e.jpg""#
        )
        .write(toFile: chain.files[1], atomically: true, encoding: .utf8)
        let calls = session.adapter.stats.heightCalls
        let requests = session.requests
        let diff = try session.reload()
        // The row of the fifth item of the floor the next pages extended: 'e' (a reload's diff places an item
        // row's item; `floorhost diff` reads its id from the page: PageDiff.namingItems).
        #expect(diff.floors.count == 1 && diff.floors[0].rows.map(\.newItem?.item) == [4])
        #expect(session.adapter.stats.heightCalls == calls + 1)
        #expect(session.adapter.pages.map(\.file) == chain.files, "every page loaded before is loaded again")
        #expect(session.feedProductIDs == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(session.viewport.offset == offset)
        #expect(session.requests == requests, "nothing is loaded again by load-more")
        #expect(session.loadMore.state == .exhausted)
    }

    @Test func aNextPageThatNoLongerReadsEndsTheChainAndFailsWhenScrolledTo() throws {
        let chain = try PageChain(in: folder, items: [["a", "b", "c"], ["d", "e"], ["f", "g"]])
        let (session, _) = try chain.session(viewport: 200)
        session.scrollToEnd()
        try FileManager.default.removeItem(atPath: chain.files[2])
        try session.reload()
        #expect(session.adapter.pages.map(\.file) == Array(chain.files.prefix(2)))
        #expect(session.feedProductIDs == ["a", "b", "c", "d", "e"])
        #expect(session.next == chain.files[2])
        session.scrollToEnd()
        #expect(session.failures.last?.contains("no such page file") == true, "\(session.failures)")
    }

    @Test func theViewsReloadIsDiffedAndSaysWhatItDid() throws {
        let ids = (0..<30).map { "p\($0)" }
        let file = try folder.write(
            "home.json", #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids))]}]}"#)
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let viewer = try PageViewer(host: host, page: file, root: PageRoot(around: file), columns: 75, lines: 40)
        _ = viewer.handle(.pageDown)
        let top = productAtTop(viewer.session)
        try folder.write(
            "home.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[\#(products(ids, price: "¥2"))]}]}"#
                .replacingOccurrences(
                    of: #""price":"¥2","img":"i.jpg","jump":{"url":"app://p/p0"}"#,
                    with: #""price":"¥1","img":"i.jpg","jump":{"url":"app://p/p0"}"#))
        let calls = viewer.adapter.stats.heightCalls
        viewer.reload()
        #expect(
            viewer.message == "reloaded home.json: 1 floor changed, 29 rows measured, 1 kept",
            "every price but p0's changed")
        #expect(viewer.adapter.stats.heightCalls == calls + 29)
        #expect(productAtTop(viewer.session) == top, "the same card at the top")
    }

    @Test func aFirstPageThatNoLongerDecodesLeavesTheSessionAsItWas() throws {
        let chain = try PageChain(in: folder, items: [["a", "b"]])
        let (session, _) = try chain.session()
        let rows = (0..<session.adapter.rowCount).map { session.adapter.describe(row: $0) }
        try folder.write("page-0.json", #"{"floors":[{"type":"Title","id":"t",}]}"#)
        #expect(throws: PageError.self) { try session.reload() }
        #expect((0..<session.adapter.rowCount).map { session.adapter.describe(row: $0) } == rows)
        #expect(session.adapter.stats.reloads == 0)
    }
}
