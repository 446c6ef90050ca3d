import FloorRender
import FloorRuntime
import FloorSession
import Foundation
import HostContract
import Testing

// The text preview as a person reads it, through the real floorhost binary and the shipped plugins: what
// a new user saw wrong (image labels, 'pinned', blank padding), styles in colour and plain, the gutter,
// the page title and the last line on next pages.

private let esc: Unicode.Scalar = "\u{1B}"

/// Every escape sequence in `text` (ESC up to its final byte), to check that SGR is the only kind.
private func escapeSequences(_ text: String) -> [String] {
    var found: [String] = []
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
        if scalars[i] == esc {
            var j = i + 1
            while j < scalars.count && !(scalars[j].properties.isAlphabetic) { j += 1 }
            found.append(String(String.UnicodeScalarView(scalars[i...min(j, scalars.count - 1)])))
            i = j
        }
        i += 1
    }
    return found
}

private func lines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
}

struct TextPreviewTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("text-preview")
        plugins = try folder.installShippedPlugins()
    }

    private func render(_ page: String, _ extra: [String] = [], environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        if environment.isEmpty { return try floorhost(["--plugins", plugins, page] + extra) }
        var env = ProcessInfo.processInfo.environment
        env["FLOORKIT_PLUGIN_CACHE"] = folder.file("scan-cache.json")
        for (k, v) in environment { env[k] = v }
        return try run(Repo.floorhostBinary, ["--plugins", plugins, page] + extra, environment: env)
    }

    private func feed(_ id: String, count: Int, sticky: Bool = true, title: String = "Product") -> String {
        let items = (0..<count).map {
            #"{"id":"\#(id)\#($0)","title":"\#(title) \#($0)","price":"¥\#($0).00","img":"p/\#($0).jpg","jump":{"url":"app://p/\#($0)"}}"#
        }
        return
            #"{"type":"ProductFeed","id":"\#(id)","header":{"title":"Feed \#(id)","sticky":\#(sticky)},"items":[\#(items.joined(separator: ","))]}"#
    }

    // MARK: What a new user saw

    /// `[market]` fits the 10-column frame of a 5-column icon grid: the label gets all 8 columns inside it.
    @Test func imageLabelsUseEveryColumnInsideTheirFrame() throws {
        let icons = ["market", "fresh", "phone", "appliance", "all"].map {
            #"{"id":"\#($0)","img":"https://img.example.com/icon/\#($0).png","title":"\#($0)","jump":{"url":"app://c"}}"#
        }
        let page = try folder.write(
            "icons.json",
            #"{"floors":[{"type":"IconGrid","id":"icons","columns":5,"items":[\#(icons.joined(separator: ","))]}]}"#)
        let result = try render(page)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("│[market]│"), "\(result.stdout)")
        #expect(!result.stdout.contains("[marke…"))
        #expect(result.stdout.contains("│[applia…│"), "a longer name is still cut, at the frame")
    }

    /// Nothing is pinned in a whole-page render; on a scrolled screen only the header that is pinned says so.
    @Test func onlyThePinnedHeaderSaysPinned() throws {
        let page = try folder.write("sticky.json", #"{"floors":[\#(feed("a", count: 10)),\#(feed("b", count: 10))]}"#)
        let whole = try render(page)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("Feed a") && whole.stdout.contains("Feed b"))
        #expect(!whole.stdout.contains("pinned"), "\(whole.stdout)")
        let screen = try render(page, ["--viewport", "375x240", "--scroll-to", "400"])
        let pinnedLines = lines(screen.stdout).filter { $0.contains("pinned") }
        #expect(pinnedLines.count == 1 && pinnedLines[0].contains("Feed a"), "\(screen.stdout)")
    }

    /// A page shorter than the screen, after --scroll-to end, shows its rows and no blank screen below them.
    @Test func aShortPageIsNotPaddedToTheScreen() throws {
        let page = try folder.write("short.json", #"{"floors":[{"type":"Title","id":"t","title":"Just a title"}]}"#)
        let whole = try render(page)
        let scrolled = try render(page, ["--scroll-to", "end"])
        #expect(scrolled.status == 0, "\(scrolled.stderr)")
        let body = lines(scrolled.stdout).dropLast()
        #expect(body == lines(whole.stdout).dropLast(), "the screen shows the same rows as the whole page")
        #expect(body.count < 10, "\(body.count) lines for one title bar")
        #expect(lines(scrolled.stdout).last?.hasPrefix("-- screen 375x812 at y 0 of ") == true)
    }

    /// The README's --viewport default says what a plain render draws (the whole page), as --help does.
    @Test func theViewportDefaultIsDescribedAsItBehaves() throws {
        let readme = try String(contentsOfFile: Repo.path("README.md"), encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `--viewport") })
        #expect(row.contains("whole page"), "\(row)")
        let help = try floorhost(["render", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("a plain render draws the whole page"), "\(help)")
    }

    // MARK: Styles

    @Test func coloursOnlyWhenAskedAndOnlySGR() throws {
        // A plugin-drawn title carrying an ESC sequence of its own: it stays escaped in colour too.
        let page = try folder.write(
            "colour.json", #"{"title":"Home","floors":[\#(feed("a", count: 2, title: #"Bad\u001b[2J"#))]}"#)
        let plain = try render(page, ["--color", "never"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.unicodeScalars.contains(esc))
        let auto = try render(page)  // stdout is a pipe here
        #expect(auto.stdout == plain.stdout)
        let coloured = try render(page, ["--color", "always"])
        #expect(coloured.stdout.contains("\u{1B}[0;1mHome\u{1B}[0m"), "the title in bold")
        #expect(coloured.stdout.contains("\u{1B}[0;31m¥1.00\u{1B}[0m"), "prices in the accent colour")
        #expect(coloured.stdout.contains(#"Bad\u001b[2J"#), "the plugin's ESC is shown escaped")
        let sequences = Set(escapeSequences(coloured.stdout))
        #expect(
            sequences.isSubset(of: Set(TextStyle.sgrTable.map { String(decoding: $0, as: UTF8.self) })), "\(sequences)")
        let noColor = try render(page, ["--color", "always"], environment: ["NO_COLOR": "1"])
        #expect(noColor.stdout == coloured.stdout, "always is always")
        // Without the styles, the coloured output is the plain one.
        var stripped = coloured.stdout
        for sgr in sequences { stripped = stripped.replacingOccurrences(of: sgr, with: "") }
        #expect(stripped == plain.stdout)
    }

    /// `--color auto` on a real terminal (a pseudo-terminal from util-linux's `script`): colour, unless
    /// NO_COLOR is set.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func autoColoursATerminalUnlessNOCOLOR() throws {
        let page = try folder.write("tty.json", #"{"title":"Home","floors":[\#(feed("a", count: 1))]}"#)
        let command = [Repo.floorhostBinary, "--plugins", plugins, page].joined(separator: " ")
        func onTerminal(_ environment: [String: String]) throws -> String {
            var env = ProcessInfo.processInfo.environment
            env["FLOORKIT_PLUGIN_CACHE"] = folder.file("scan-cache.json")
            env["NO_COLOR"] = nil
            for (k, v) in environment { env[k] = v }
            let result = try run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        #expect(try onTerminal([:]).contains("\u{1B}[0;1mHome\u{1B}[0m"))
        #expect(!(try onTerminal(["NO_COLOR": "1"]).unicodeScalars.contains(esc)))
    }

    @Test func autoColourNeedsATerminalAndNoNOCOLOR() {
        #expect(ColorChoice.auto.styled(outputIsTerminal: true, environment: [:]))
        #expect(!ColorChoice.auto.styled(outputIsTerminal: false, environment: [:]))
        #expect(!ColorChoice.auto.styled(outputIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(
            ColorChoice.auto.styled(outputIsTerminal: true, environment: ["NO_COLOR": ""]),
            "an empty NO_COLOR does not count")
        #expect(ColorChoice.always.styled(outputIsTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.styled(outputIsTerminal: true, environment: [:]))
    }

    @Test func aGridWritesAStyleChangeOnceAndResetsAtTheLineEnd() {
        var grid = TextGrid(columns: 20, lines: 1)
        grid.text("ab", column: 0, line: 0, maxColumns: 2, style: .bold)
        grid.text("cd", column: 3, line: 0, maxColumns: 2, style: .bold)
        grid.text("¥9", column: 6, line: 0, maxColumns: 2, style: .accent)
        var styled: [UInt8] = []
        var plain: [UInt8] = []
        grid.write(line: 0, to: &styled, styled: true)
        grid.write(line: 0, to: &plain, styled: false)
        #expect(String(decoding: styled, as: UTF8.self) == "\u{1B}[0;1mab cd \u{1B}[0;31m¥9\u{1B}[0m")
        #expect(String(decoding: plain, as: UTF8.self) == "ab cd ¥9")
    }

    // MARK: Gutter, title, next pages

    @Test func theGutterNamesEachRowOnItsFirstLine() throws {
        let page = try folder.write(
            "gutter.json", #"{"floors":[{"type":"Title","id":"t","title":"Hello"},\#(feed("f", count: 2))]}"#)
        let result = try render(page, ["--gutter"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = lines(result.stdout).dropLast()
        for label in ["0:0 t TitleBar", "1:0 f ProductFeedHeader", "1:1 f ProductCard", "1:2 f ProductCard"] {
            #expect(body.filter { $0.hasPrefix(label + " ") }.count == 1, "\(label) in \(result.stdout)")
        }
        // The margin is one column wide for every line: the separator is in the same display column.
        let columns = Set(
            body.map { line in line.prefix { $0 != "│" }.unicodeScalars.reduce(0) { $0 + DisplayWidth.of($1) } })
        #expect(columns.count == 1, "\(columns)")
        let tap = try render(page, ["--tap", "1:2"])
        #expect(tap.status == 0, "what the gutter names is what --tap takes: \(tap.stderr)")
        #expect(try jsonObject(tap.stdout)["row"] as? Int == 2)
    }

    /// Labels are built from bytes (GutterLabels): a control character in a floor's id shows as its escape,
    /// and section and row numbers past one digit are whole.
    @Test func theGutterEscapesAFloorIdAndCountsPastNine() throws {
        let floor = feed(#"f\u0007x"#, count: 12)
        let page = try folder.write("gutter-escape.json", #"{"floors":[\#(floor)]}"#)
        let result = try render(page, ["--gutter"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = lines(result.stdout).dropLast()
        for label in [#"0:0 f\u0007x ProductFeedHeader"#, #"0:12 f\u0007x ProductCard"#] {
            #expect(body.filter { $0.hasPrefix(label + " ") }.count == 1, "\(label) in \(result.stdout)")
        }
        #expect(!result.stdout.contains("\u{7}"))
    }

    @Test func theTitleComesFirstAndTheNextPageStatusLast() throws {
        // 20 products fill the screen, so nothing loads the next page until scrolling reaches the end.
        let chain = try folder.write(
            "a.json", #"{"title":"首页 Home","floors":[\#(feed("f", count: 20))],"next":"b.json"}"#)
        _ = try folder.write("b.json", #"{"floors":[\#(feed("f", count: 2))],"next":null}"#)
        let plain = try render(chain)
        #expect(lines(plain.stdout).first == "首页 Home")
        #expect(lines(plain.stdout).last == "-- next page 'b.json' not loaded (--scroll-to end loads every next page)")
        let loaded = try render(chain, ["--scroll-to", "end"])
        #expect(
            lines(loaded.stdout).last?.hasSuffix("; 1 next page loaded; end of the feed: no next page") == true,
            "\(loaded.stdout)")
        let single = try folder.write("single.json", #"{"floors":[\#(feed("f", count: 1))]}"#)
        #expect(lines(try render(single).stdout).last == "-- end of the feed: no next page")
    }

    /// A next page that fails to load says so in the text's last line and on stderr, and is a diagnostic in json.
    @Test func aFailedNextPageIsNeverSilent() throws {
        let page = try folder.write("broken.json", #"{"floors":[\#(feed("f", count: 1))],"next":"missing.json"}"#)
        let text = try render(page, ["--scroll-to", "end"])
        #expect(text.status == 0, "\(text.stderr)")
        let last = try #require(lines(text.stdout).last)
        #expect(
            last.hasPrefix("!! ") && last.contains("the next page 'missing.json' failed to load: ")
                && last.contains("--retry"), "\(last)")
        #expect(text.stderr.contains("error: \(page): next: next page '"), "\(text.stderr)")
        let json = try jsonObject(try render(page, ["--scroll-to", "end", "--format", "json"]).stdout)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        let failed = diagnostics.filter { ($0["message"] as? String)?.contains("failed to load") == true }
        #expect(
            failed.count == 1 && failed.first?["level"] as? String == "error"
                && failed.first?["consequence"] as? String == "the chain stops here"
                && failed.first?["path"] as? String == "next", "\(diagnostics)")
    }
}

/// The page's `title`: read by the scanner (no DOM), a string or null; any other value is a problem that
/// does not stop the page.
struct PageTitleTests {
    @Test func aTitleIsAStringOrNothing() throws {
        #expect(try PageScanner.scan(Array(#"{"title":"首页 \u0048ome","floors":[]}"#.utf8)).title == "首页 Home")
        #expect(try PageScanner.scan(Array(#"{"floors":[]}"#.utf8)).title == nil)
        #expect(try PageScanner.scan(Array(#"{"title":null,"floors":[]}"#.utf8)).problems.isEmpty)
        let number = try PageScanner.scan(Array(#"{"title":5,"floors":[]}"#.utf8))
        #expect(number.title == nil)
        #expect(
            number.problems.map(\.text) == ["title: must be a string, found number; the page is shown without a title"])
    }
}
