import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Every chain ends, by one rule for every front end and `check`: a next page already in the chain (the
/// first page included) is a loop, and a chain stops at the root's `maxPages` (`--max-pages`, default
/// 1,000); either is a diagnostic and the footer's text.
struct ChainEndTests {
    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    /// a -> b -> a: render loads b once and a never again (it printed a's rows twice), and says so.
    @Test func aLoopBackToTheFirstPageEndsTheChainInRender() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: [Self.ids(0..<3), Self.ids(3..<6)])
        try folder.write(
            "page-1.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed2","items":[{"id":"q","title":"Q","price":"1","img":"q.jpg"}]}],"next":"page-0.json"}"#
        )
        let plugins = try folder.installShippedPlugins()
        let result = try floorhost(["--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result.stdout)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["floor"] as? String == "feed" }.count == 3, "page-0's rows once")
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(
            diagnostics.contains {
                ($0["message"] as? String)?.contains("next page '\(chain.files[0])' links back into the chain") == true
            }, "\(diagnostics)")
        let footer = try #require(json["footer"] as? [String: Any])
        #expect(footer["state"] as? String == "stopped")
        #expect((footer["text"] as? String)?.contains("already in the chain (a loop)") == true, "\(footer)")
    }

    /// A chain of new locations stops at --max-pages, in a session and in check, with the same reason.
    @Test func aLongChainStopsAtMaxPagesEverywhere() throws {
        let folder = try TemporaryFolder()
        let chain = try PageChain(in: folder, items: (0..<8).map { Self.ids($0 * 2..<$0 * 2 + 2) })
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        var root = PageRoot(around: chain.files[0])
        root.maxPages = 5
        let adapter = try host.layout(page: chain.files[0], root: root, width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry, root: root))
        session.scrollToEnd()
        #expect(session.adapter.pages.count == 5)
        #expect(session.loadMore.state == .stopped(.limit(page: chain.files[5], maxPages: 5)))
        #expect(session.adapter.footer?.text == "stopped: 5 pages, the limit (--max-pages N loads more)")
        #expect(session.nextPageStatus.summary.contains("4 next pages loaded; the chain stops here: 5 pages"))
        let diagnostic = try #require(session.loadDiagnostics.last)
        #expect(diagnostic.level == .error && diagnostic.consequence == .chainStops)
        #expect(diagnostic.message.contains("the chain has 5 pages, the limit (--max-pages N loads more)"))

        // The CLI: the default lets all 8 through; --max-pages 5 stops render and check at 5.
        let plugins = folder.file("plugins")
        let all = try floorhost(["--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end"])
        #expect(try (jsonObject(all.stdout)["footer"] as? [String: Any])?["state"] as? String == "end")
        let limited = try floorhost([
            "--plugins", plugins, chain.files[0], "--format", "json", "--scroll-to", "end", "--max-pages", "5",
        ])
        #expect(limited.status == 0)
        #expect(limited.stdout.contains("the chain has 5 pages, the limit (--max-pages N loads more)"))
        let check = try floorhost(["check", "--plugins", plugins, chain.files[0], "--max-pages", "5"])
        #expect(check.status == 1)
        #expect((check.stdout + check.stderr).contains("the chain has 5 pages, the limit (--max-pages N loads more)"))
        let checkAll = try floorhost(["check", "--plugins", plugins, chain.files[0]])
        #expect(checkAll.status == 0, "\(checkAll.stdout)\(checkAll.stderr)")
    }

    @Test func loadMoreStopsAtTheLimitAndOnALoopToTheFirstPage() {
        var machine = LoadMore(distance: 1, firstPage: "a.json", maxPages: 3)
        #expect(machine.trigger(lastDisplayedRow: 9, rowCount: 10, filled: true, next: "b.json") == "b.json")
        machine.completed()
        #expect(machine.trigger(lastDisplayedRow: 19, rowCount: 20, filled: true, next: "c.json") == "c.json")
        machine.completed()
        #expect(machine.trigger(lastDisplayedRow: 29, rowCount: 30, filled: true, next: "d.json") == nil)
        #expect(machine.state == .stopped(.limit(page: "d.json", maxPages: 3)))
        var looping = LoadMore(distance: 1, firstPage: "a.json")
        #expect(looping.trigger(lastDisplayedRow: 9, rowCount: 10, filled: true, next: "a.json") == nil)
        #expect(looping.state == .stopped(.loop(page: "a.json")))
    }
}
