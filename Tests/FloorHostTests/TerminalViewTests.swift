import FloorLayout
import FloorRuntime
import FloorSession
import FloorTerminal
import Foundation
import HostContract
import Testing

/// `floorhost view` in a real terminal (tmux), read as a person reads it: the first screen, a pinned header,
/// loading then new rows at the end of a multi-page feed, each next page loaded once, the end, a tap, a
/// resize, a reload, and the terminal restored after `q`.
@Suite(.serialized)
struct TerminalViewTests {
    let folder: TemporaryFolder
    let chain: PageChain
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("view")
        chain = try PageChain(
            in: folder, items: [(0..<12).map { "a\($0)" }, (0..<12).map { "b\($0)" }, (0..<12).map { "c\($0)" }],
            header: true)
        plugins = try folder.installShippedPlugins()
    }

    /// The view on the chain's first page, in a shell that says how it ended once the view is gone and then
    /// keeps the pane open (the sleep is no synchronisation: the server is killed when the test ends).
    func start(_ extra: String = "", environment: String = "", columns: Int = 80, lines: Int = 30) throws -> Tmux {
        let command =
            "cd \(folder.path) && \(environment) FLOORKIT_PLUGIN_CACHE=\(folder.file("scan-cache.json")) \(Repo.floorhostBinary) view --plugins \(plugins) page-0.json \(extra); echo VIEW-EXITED $?; sleep 600"
        return try Tmux(command, columns: columns, lines: lines)
    }

    /// Ctrl-C ends the view as q does, puts the terminal back and says so in the exit status (130, as the
    /// README says), with and without plugin isolation; Ctrl-D is q.
    @Test(arguments: [("C-c", "130", ""), ("C-c", "130", "--no-plugin-isolation"), ("C-d", "0", "")])
    func ctrlCExits130(key: String, status: String, mode: String) throws {
        let tmux = try start(mode)
        try tmux.waitFor("page-0.json · ")
        try tmux.send(key)
        let after = try tmux.waitFor("VIEW-EXITED \(status)")
        #expect(after.joined().contains("viewed page-0.json"), "the summary, as after q")
        #expect(!after.contains { $0.contains("Product") }, "the terminal is put back")
    }

    /// An original price is struck a space after its price, on the price's line, although a line boundary
    /// falls between their tops (the strike, an attribute or U+0336 as the colours go, is left out here).
    @Test func theStruckOriginalPriceFollowsThePriceOnItsLine() throws {
        _ = try folder.write(
            "sale.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","items":[{"id":"p1","title":"无线蓝牙耳机 Pro","price":"¥199.00","originalPrice":299,"img":"https://x/1.jpg"}]}]}"#
        )
        let tmux = try Tmux(
            "cd \(folder.path) && FLOORKIT_PLUGIN_CACHE=\(folder.file("scan-cache.json")) \(Repo.floorhostBinary) view --plugins \(plugins) sale.json; sleep 600"
        )
        let screen = try tmux.waitFor("sale.json · ").map { $0.replacingOccurrences(of: "\u{336}", with: "") }
        #expect(screen.contains { $0.hasSuffix("│  ¥199.00 ¥299.00") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.filter { $0.contains("¥299.00") }.count == 1)
    }

    @Test func theFirstScreenShowsThePageAndTheStatusLine() throws {
        let tmux = try start()
        let screen = try tmux.waitFor("page-0.json · ")
        #expect(screen.contains { $0.contains("Feed") }, "the feed's header")
        #expect(screen.contains { $0.contains("Product a0") })
        #expect(screen.last?.contains("next: page-1.json") == true, "\(screen.last ?? "")")
        #expect(screen.count == 30 && screen.allSatisfy { DisplayWidth.of($0) <= 80 })
    }

    /// The footer says why a load failed; Shift-Tab selects it (its one item) and Enter retries, here with the page
    /// back in place.
    @Test func enterOnTheFailedFooterRetries() throws {
        let page1 = try String(contentsOfFile: chain.files[1], encoding: .utf8)
        try FileManager.default.removeItem(atPath: chain.files[1])
        let tmux = try start("--impression 50%:0ms")
        try tmux.waitFor("page-0.json · ")
        try tmux.send("G")
        let failed = try tmux.waitFor("failed (R retries)")
        #expect(
            failed.contains { $0.contains("failed:") && $0.contains("(tap to retry)") },
            "\(failed.joined(separator: "\n"))")
        #expect(failed.last?.contains(" seen · ") == true, "the status line counts what was seen")
        try folder.write("page-1.json", page1)
        try tmux.send("BTab")  // Shift-Tab: the last item on screen, the footer's
        try tmux.waitFor("LoadStateFooter of floor 'floorhost.footer'")
        try tmux.send("Enter")
        try tmux.waitFor(" 2 pages ")
    }

    @Test func scrollingDownPinsTheStickyHeader() throws {
        let tmux = try start()
        try tmux.waitFor("page-0.json · ")
        try tmux.send("Space", "Space")
        let screen = try tmux.waitFor("scrolled two screens") {
            $0.last?.contains(" 0% ") == false && !$0.contains { $0.contains("Product a0") }
        }
        #expect(
            screen.prefix(3).contains { $0.contains("Feed") },
            "the header pinned on top:\n\(screen.joined(separator: "\n"))")
    }

    @Test func scrollingToTheEndLoadsEveryNextPageOnceAndSaysTheEnd() throws {
        let tmux = try start("--load-latency 400")
        try tmux.waitFor("page-0.json · ")
        try tmux.send("G")
        let loading = try tmux.waitFor("loading page-1.json…")
        #expect(
            loading.dropLast(2).contains { $0.trimmingCharacters(in: .whitespaces) == "loading…" },
            "the footer row says it too")
        let end = try tmux.waitFor("end of feed")
        #expect(end.contains { $0.contains("Product c11") }, "the last page's last product is on screen")
        #expect(
            end.dropLast(2).contains { $0.trimmingCharacters(in: .whitespaces) == "no more" },
            "the footer row, below the last product")
        #expect(end.last?.contains("3 pages") == true)
        try tmux.send("q")
        let after = try tmux.waitFor("VIEW-EXITED 0")
        // The summary is one line, wrapped by the 80-column pane.
        #expect(
            after.joined().contains(
                "viewed page-0.json: 2 next pages loaded (page-1.json, page-2.json), 37 rows, end of feed"),
            "each next page loaded once:\n\(after.joined(separator: "\n"))")
        #expect(!after.contains { $0.contains("Product") }, "the alternate screen is gone: the terminal is as it was")
    }

    @Test func tabSelectsAnItemAndEnterShowsItsAction() throws {
        let tmux = try start()
        try tmux.waitFor("page-0.json · ")
        try tmux.send("Tab")
        try tmux.waitFor("item 1 of 1 in row 0:1 (ProductCard of floor 'feed'); Enter taps it")
        try tmux.send("Tab")
        try tmux.waitFor("in row 0:2 (ProductCard")
        try tmux.send("BTab")
        try tmux.waitFor("in row 0:1 (ProductCard")
        try tmux.send("Enter")
        try tmux.waitFor("tap 0:1:0 → app://product/a0")
    }

    @Test func aResizeLaysThePageOutAtTheNewWidth() throws {
        let tmux = try start()
        let wide = try tmux.waitFor("page-0.json · ")
        #expect(wide.map(DisplayWidth.of).max()! > 70)
        try tmux.resize(columns: 50, lines: 20)
        let narrow = try tmux.waitFor("a 50-column layout") { screen in
            screen.count == 20 && screen.last?.contains("page-0.json") == true
                && screen.map(DisplayWidth.of).max()! <= 50
                && screen.contains { $0.hasPrefix("─") && DisplayWidth.of($0) >= 45 }
        }
        #expect(narrow.contains { $0.contains("Product a0") }, "the same content at the top")
    }

    @Test(arguments: [false, true])
    func aChangedPageFileIsReloadedInPlace(watch: Bool) throws {
        let tmux = try start(watch ? "--watch" : "")
        try tmux.waitFor("Product a1")
        try tmux.send("j")
        let page = try String(contentsOfFile: chain.files[0], encoding: .utf8)
        try page.replacingOccurrences(of: "Product a1", with: "Renamed a1").write(
            toFile: chain.files[0], atomically: true, encoding: .utf8)
        if !watch { try tmux.send("r") }
        let screen = try tmux.waitFor("Renamed a1")
        #expect(!screen.contains { $0.contains("Product a1") })
        #expect(screen.dropLast().last?.contains("reloaded page-0.json") == true, "the message line says so")
    }

    /// A plugin that crashes drawing a floor at the end of the page: the supervised view starts again with
    /// that floor left out, where it was (not at the top), and says so; quitting lists the crash.
    @Test func aPluginCrashDrawingAFloorRestartsTheViewWhereItWas() throws {
        try compileCPlugin(to: plugins + "/libBadge.so", defines: ["CRASHES_ON_DATA"])
        let products = (0..<30).map { #"{"id":"x\#($0)","title":"Product x\#($0)","price":"¥1.00","img":"p.jpg"}"# }
        try folder.write(
            "crashing.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(products.joined(separator: ","))]},{"type":"Badge","id":"bad","text":"crash:cell"}]}"#
        )
        let command =
            "cd \(folder.path) && FLOORKIT_PLUGIN_CACHE=\(folder.file("scan-cache.json")) \(Repo.floorhostBinary) view --plugins \(plugins) crashing.json; echo VIEW-EXITED $?; sleep 600"
        let tmux = try Tmux(command, columns: 80, lines: 30)
        try tmux.waitFor("crashing.json · ")
        try tmux.send("G")
        let restarted = try tmux.waitFor("the view back, near the end, with the diagnostic") { screen in
            screen.contains { $0.contains("Product x29") } && screen.dropLast().last?.contains("diagnostic") == true
        }
        #expect(
            !restarted.contains { $0.contains("Product x0") },
            "not back at the top:\n\(restarted.joined(separator: "\n"))")
        #expect(restarted.last?.contains("100%") == true, "\(restarted.last ?? "")")
        try tmux.send("q")
        let after = try tmux.waitFor("VIEW-EXITED 0")
        #expect(
            after.joined().contains("crashed with SIGSEGV in its cell selector"), "\(after.joined(separator: "\n"))")
    }

    /// Prices are accent (red, SGR 31) and titles bold in colour; NO_COLOR turns colour off under `auto`.
    @Test(arguments: [("--color always", true), ("", false)])
    func colourFollowsColorAndNoColor(option: String, coloured: Bool) throws {
        let tmux = try start(option, environment: coloured ? "" : "NO_COLOR=1")
        try tmux.waitFor("page-0.json · ")
        let screen = try tmux.screen(escapes: true).joined(separator: "\n")
        let price = screen.range(of: "\u{1b}[31m")
        let bold = screen.range(of: "\u{1b}[1m")
        #expect(
            (price != nil) == coloured && (bold != nil) == coloured,
            "colour \(coloured ? "expected" : "not expected"):\n\(screen)")
        #expect(screen.contains("\u{1b}[7m"), "the status line is in reverse video either way")
    }

    /// The key line under the page fits the terminal and always names `?` and `q` (at 80 columns it was cut
    /// before `q`); narrower terminals drop the keys least needed first.
    @Test(arguments: [80, 50, 24])
    func theKeyLineFitsAndNamesHelpAndQuit(columns: Int) throws {
        let tmux = try start(columns: columns)
        let screen = try tmux.waitFor("?: keys  q: quit")
        let keys = try #require(screen.dropLast().last)
        #expect(DisplayWidth.of(keys) <= columns && !keys.contains("…"), "\(keys)")
        if columns >= 80 { #expect(keys.contains("Tab: item  Enter: tap"), "\(keys)") }
    }

    /// `?` shows every key over the page and any key closes it; a message (here Tab's) lasts until the next
    /// key, and then the key line is back.
    @Test func questionMarkShowsEveryKeyAndTheKeysComeBackAfterAMessage() throws {
        let tmux = try start()
        try tmux.waitFor("?: keys  q: quit")
        try tmux.send("?")
        let help = try tmux.waitFor("Tab / Shift-Tab: select the next / previous tappable item on screen")
        #expect(help.contains { $0.contains("R: retry a failed next page now") }, "\(help.joined(separator: "\n"))")
        #expect(!help.contains { $0.contains("Product a0") }, "the help is drawn over the page")
        try tmux.send("Tab")
        let selected = try tmux.waitFor("Enter taps it")
        #expect(selected.contains { $0.contains("Product a0") }, "the page is back")
        try tmux.send("j")
        let back = try tmux.waitFor("the key line back") { $0.dropLast().last?.contains("?: keys  q: quit") == true }
        #expect(!back.joined().contains("Enter taps it"))
    }

    /// After `G` the item Tab selected is off screen: the message line no longer offers it.
    @Test func afterGTheMessageOffersNoItemThatIsOffScreen() throws {
        let tmux = try start()
        try tmux.waitFor("page-0.json · ")
        try tmux.send("Tab")
        try tmux.waitFor("item 1 of 1 in row 0:1 (ProductCard of floor 'feed'); Enter taps it")
        try tmux.send("G")
        let end = try tmux.waitFor("end of feed")
        #expect(!end.joined().contains("Enter taps it"), "\(end.joined(separator: "\n"))")
        #expect(end.dropLast().last?.contains("q: quit") == true)
    }

    /// `--width 375` lays the page out 375 points wide in an 80-column terminal, and a resize keeps it.
    @Test func widthLaysThePageOutInPointsWhateverTheTerminal() throws {
        let tmux = try start("--width 375")
        let screen = try tmux.waitFor("page-0.json · 375 points wide · ")
        #expect(screen.contains { $0.contains("Product a0") })
        try tmux.resize(columns: 50, lines: 20)
        try tmux.waitFor("still 375 points at 50 columns") {
            $0.count == 20 && $0.last?.contains("375 points wide") == true && $0.map(DisplayWidth.of).max()! <= 50
        }
        let host = try FloorHost(pluginFolder: plugins)
        let viewer = try PageViewer(
            host: host, page: chain.files[0], root: PageRoot(around: chain.files[0]), columns: 80, lines: 30,
            width: 375)
        #expect(viewer.adapter.width == 375)
        viewer.resize(columns: 50, lines: 20)
        #expect(viewer.adapter.width == 375)
        let plain = try PageViewer(
            host: host, page: chain.files[0], root: PageRoot(around: chain.files[0]), columns: 80, lines: 30)
        #expect(plain.adapter.width == 400, "5 points a column without --width")
    }

    @Test func withoutATerminalItRefusesAndPointsToTheTextOutput() throws {
        let result = try floorhost(["view", "--plugins", plugins, chain.files[0]])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "floorhost view needs a terminal on stdin and stdout; for text output use `floorhost PAGE`"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
