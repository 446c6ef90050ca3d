import FloorSession
import Foundation
import Testing

/// `floorhost view` on pages over HTTP, in a real terminal (tmux) against a real server on loopback: a page
/// the server holds back is fetched while the keys keep scrolling, and a failed page is retried by the
/// policy with a countdown, then by R after the policy gave up.
@Suite(.serialized)
struct RemoteViewTests {
    func start(_ server: PageServer, _ extra: String = "") throws -> Tmux {
        let plugins = try server.folder.installShippedPlugins()
        let command =
            "FLOORKIT_PLUGIN_CACHE=\(server.folder.file("scan-cache.json")) \(Repo.floorhostBinary) view --plugins \(plugins) \(server.url("page-0.json")) \(extra); echo VIEW-EXITED $?; sleep 600"
        return try Tmux(command, columns: 80, lines: 30)
    }

    @Test func theViewScrollsWhileAHeldPageIsFetched() throws {
        let folder = try TemporaryFolder("remote-view")
        _ = try PageChain(in: folder, items: [(0..<12).map { "a\($0)" }, (0..<12).map { "b\($0)" }])
        let server = try PageServer(serving: folder)
        try server.script(["/page-1.json": [["hold": "page-1"]]])
        let tmux = try start(server)
        try tmux.waitFor("page-0.json · ")
        try tmux.send("G")
        try tmux.waitFor("loading page-1.json…")
        // Held by the server: the keys still scroll.
        try tmux.send("g")
        let top = try tmux.waitFor("back at the top while loading") {
            $0.last?.contains(" 0% · loading page-1.json…") == true
        }
        #expect(top.contains { $0.contains("Product a0") })
        server.release("page-1")
        // The page arrives while the view is at the top; G goes to the new bottom only once it is in.
        try tmux.waitFor("page-1 in the status") { $0.last?.contains("2 pages") == true }
        try tmux.send("G")
        let end = try tmux.waitFor("the last product") { $0.contains { $0.contains("Product b11") } }
        #expect(end.contains { $0.contains("end of feed") })
        #expect(server.requests.filter { $0 == "/page-1.json" }.count == 1)
    }

    @Test func aFailedPageCountsDownItsRetryAndRRetriesAfterThePolicyGaveUp() throws {
        let folder = try TemporaryFolder("remote-view")
        _ = try PageChain(in: folder, items: [(0..<12).map { "a\($0)" }, (0..<12).map { "b\($0)" }])
        let server = try PageServer(serving: folder)
        try server.script(["/page-1.json": [["status": 503, "headers": ["Retry-After": "2"]], ["status": 503]]])
        let tmux = try start(server, "--retry 1")
        try tmux.waitFor("page-0.json · ")
        try tmux.send("G")
        try tmux.waitFor("page-1.json failed, retrying in ")
        try tmux.waitFor("could not load page-1.json (--retry tries again): the server answered 503")
        try tmux.waitFor("page-1.json failed (R retries)")
        #expect(server.requests.filter { $0 == "/page-1.json" }.count == 2)
        try server.script([:])
        try tmux.send("R")
        let end = try tmux.waitFor("end of feed")
        #expect(end.last?.contains("2 pages") == true)
    }
}
