import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorLayout
import FloorRender
import FloorSession
import HostContract

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Lay out and draw a page (the default command).",
        discussion: """
            Text shows the page's title, every row (or, with --viewport or --scroll-to, one screen), \
            and a last line saying whether a next page exists, was loaded, failed (why) or the feed ended.
            Examples:
              floorhost --plugins Plugins/ Examples/home.json --gutter
              floorhost --plugins Plugins/ Examples/home.json --color always | less -R
              floorhost --plugins Plugins/ Examples/home.json --scroll-to 2000
              floorhost --plugins Plugins/ Examples/home.json --format json --scroll-to end
              floorhost --plugins Plugins/ Examples/home.json --tap 1:0:2
              floorhost --plugins Plugins/ Examples/home.json --format html > home.html
              floorhost --plugins Plugins/ http://127.0.0.1:8000/home.json --scroll-to end --retry 3
            """)

    typealias Format = PageRender.Format

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The page: a JSON file, or an http:// or https:// URL.")
    var page: String

    @Option(
        help:
            "Output: text (a terminal preview: the title, the floors, a line on next pages), json (layout, viewport, cells, diagnostics, events, stats) or html (one self-contained file: the page in a phone frame)."
    )
    var format: Format = .text

    @Option(
        help:
            "Terminal columns for text (default 75, which shows 375 points); layout points for json and html (default 375)."
    )
    var width: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The phone screen, WIDTHxHEIGHT in points. With text output, draws just that screen (a plain render draws the whole page).",
            discussion:
                "Default: 375x812 for scrolling and json; text without --viewport or --scroll-to draws every row.",
            valueName: "WxH"),
        transform: ViewportSize.parse)
    var viewport: ViewportSize?

    @Option(
        name: .customLong("scroll-to"), parsing: .unconditional,
        help: ArgumentHelp(
            "Scroll from the top to Y points (0 or more), or 'end' (until no more content or pages), in steps of at most one screen; text then draws that screen.",
            valueName: "Y|end"),
        transform: ScrollTarget.parse)
    var scrollTo: ScrollTarget?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Print the action of tapping item ITEM (default 0) of row ROW of floor SECTION as JSON, after any scrolling (--gutter shows each row's SECTION:ROW).",
            valueName: "SECTION:ROW[:ITEM]"),
        transform: TapTarget.parse)
    var tap: TapTarget?

    @Option(
        help:
            "Retry a failed next-page load up to N times, after 0.125-0.25 s, then twice that each time (with jitter), or as long as the server's Retry-After asks (up to 120 s). Only a page that did not arrive is retried (no answer, a refused or reset connection, a 5xx, 408 or 429, a missing file); one that arrived unusable or was refused is not."
    )
    var retry = 0

    @OptionGroup var loading: LoadStateOptions

    @Option(help: "How height and cell selectors are called: typed (direct) or ffi (libffi).")
    var dispatch: DispatchMode = .typed

    @Option(
        help: ArgumentHelp(
            "Text in colour and bold (ANSI): auto (when stdout is a terminal and NO_COLOR is not set), always or never.",
            valueName: "when"))
    var color: ColorChoice = .auto

    @Flag(
        help:
            "With text output, a left margin naming each row on its first line: section:row (what --tap takes), floor id and row type."
    )
    var gutter = false

    func validate() throws {
        if let width, !(width >= 1 && width <= 100_000) {
            throw ValidationError("--width must be between 1 and 100000")
        }
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if gutter && format == .json {
            throw ValidationError(
                "--gutter draws a margin in text output; with --format json every row already carries its section, row, floor and type"
            )
        }
    }

    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var pages: PageRootOptions
    @OptionGroup var remote: RemotePageOptions

    func run() throws {
        // With isolation, this process only supervises: a child renders, and a floor a plugin crashes or
        // hangs on is left out of the next attempt (PageSupervisor).
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation, command: self)
        let root = try pages.root(for: page)
        let remotePages = remote.client(maxPageBytes: pages.maxPageBytes)
        let host = try plugins.load()
        try containment.attach(host)
        var render = PageRender()
        (render.format, render.width, render.viewport, render.scrollTo, render.tap) = (
            format, width, viewport, scrollTo, tap
        )
        (render.retries, render.prefetch, render.impressions) = (retry, loading.prefetchRule, loading.impression)
        (render.dispatch, render.gutter) = (dispatch, gutter)
        render.styled = color.styled(
            outputIsTerminal: HostOutput.standardOutput.isTerminal,
            environment: ProcessEnvironment.values(of: ["NO_COLOR"]))
        let result = try unusableInput { try render.run(host: host, page: page, root: root, remote: remotePages) }
        for line in result.messages { printError(line) }
        // Written from what the render holds, in chunks (json) or gathered pieces (text): never copied whole,
        // which would double the peak memory.
        try writeOutput { try result.output.write(to: $0) }
        try containment.finish(result.failed ? 1 : 0, keeping: result)
    }
}

extension DispatchMode: CaseArgument {}

extension PageRender.Format: CaseArgument {}

extension ColorChoice: CaseArgument {}
