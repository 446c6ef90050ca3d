import ArgumentParser
import FloorHost
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out and draw a page (the default command).",
        discussion: """
            Examples:
              floorhost --plugins Plugins/ Examples/home.json
              floorhost --plugins Plugins/ Examples/home.json --format json --scroll-to end
              floorhost --plugins Plugins/ Examples/home.json --viewport 375x812 --scroll-to 2000
              floorhost --plugins Plugins/ Examples/home.json --tap 1:0:2
              floorhost --plugins Plugins/ Examples/home.json --format html > home.html
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, html }

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The page JSON file.")
    var page: String

    @Option(help: "Output: text (a terminal preview), json (layout, viewport, cells, diagnostics, events, stats) or html (one self-contained file: the page in a phone frame).")
    var format: Format = .text

    @Option(help: "Terminal columns for text (default 75, which shows 375 points); layout points for json and html (default 375).")
    var width: Double?

    @Option(help: "The screen, WxH points (default 375x812). With text output, draws just that screen.")
    var viewport: ViewportSize?

    @Option(name: .customLong("scroll-to"), help: "Scroll from the top to Y points, or 'end' (until no more content or pages), in steps of at most one screen.")
    var scrollTo: ScrollTarget?

    @Option(help: "Print the action of tapping SECTION:ROW[:ITEM] (ROW counts within the floor) as JSON, after any scrolling.")
    var tap: TapTarget?

    @Option(help: "Retry a failed next-page load up to N times.")
    var retry = 0

    @Option(name: .customLong("load-more-distance"), help: "Start loading the next page when one of the last N rows is displayed.")
    var loadMoreDistance = 4

    @Option(help: "How height and cell selectors are called: typed (direct) or ffi (libffi).")
    var dispatch: DispatchMode = .typed

    func validate() throws {
        if let width, !(width >= 1 && width <= 100_000) { throw ValidationError("--width must be between 1 and 100000") }
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if loadMoreDistance < 1 { throw ValidationError("--load-more-distance must be 1 or more (the last rows that trigger a load)") }
    }

    @OptionGroup var containment: ContainmentOptions

    @OptionGroup var pages: PageRootOptions

    func run() throws {
        // With isolation, this process only supervises: a child renders, and a floor a plugin crashes or
        // hangs on is left out of the next attempt (PageSupervisor).
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation)
        let root = try pages.root(for: page)
        let host = try plugins.load()
        try containment.attach(host)
        // --width counts columns for text and points for json; --viewport's width, when given, is the layout's.
        let textWidth = TextRenderer.layoutWidth(columns: Int(width ?? Double(TextRenderer.defaultColumns)))
        let screen = viewport ?? ViewportSize(width: format == .text ? textWidth : width ?? 375, height: 812)
        let columns = Int(width ?? (screen.width / TextRenderer.pointsPerColumn).rounded())
        let adapter: Adapter
        do {
            adapter = try host.layout(page: page, root: root, width: screen.width, dispatch: dispatch)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let session = PageSession(adapter: adapter, viewportHeight: screen.height, source: PageSource(registry: host.registry, root: root),
                                  distance: loadMoreDistance, retries: retry)
        switch scrollTo {
        case .end?: session.scrollToEnd()
        case .offset(let y)?: session.scroll(toward: y)
        case nil: break
        }
        let diagnostics = host.diagnostics(for: adapter)
        var output = Data(), failure: String?
        if let tap {
            switch adapter.tap(section: tap.section, row: tap.row, item: tap.item) {
            case .success(let action): output = Data(TapOutput.json(action).utf8)
            case .failure(let none): failure = "no action: \(none)"
            }
        } else {
            switch format {
            case .text:
                let text = viewport == nil && scrollTo == nil
                    ? TextRenderer.render(adapter, columns: columns)
                    : TextRenderer.render(adapter, viewport: session.viewport, columns: columns)
                output = Data(text.utf8)
            case .json:
                output = Data(JSONRenderer.render(session, plugins: host.plugins, diagnostics: diagnostics))
            case .html:
                output = Data(HTMLRenderer.render(session, diagnostics: diagnostics).utf8)
            }
        }
        // Every plugin call has returned: only now is anything written, so that a supervised attempt that
        // crashed left nothing behind. json carries its diagnostics in the output; the rest go to stderr.
        if tap != nil || format != .json {
            for d in diagnostics { printError("\(d.level.rawValue): \(d.message)") }
        }
        if let failure { printError(failure) }
        FileHandle.standardOutput.write(output)
        try containment.finish(failure == nil ? 0 : 1)
    }
}

/// `--viewport WxH`.
struct ViewportSize: ExpressibleByArgument {
    let width: Double
    let height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 1, h >= 1, w <= 100_000, h <= 1_000_000 else { return nil }
        self.init(width: w, height: h)
    }
}

/// `--scroll-to end|Y`.
enum ScrollTarget: ExpressibleByArgument {
    case end
    case offset(Double)

    init?(argument: String) {
        if argument == "end" { self = .end } else if let y = Double(argument), y.isFinite, y >= 0 { self = .offset(y) } else { return nil }
    }
}

/// `--tap SECTION:ROW[:ITEM]`.
struct TapTarget: ExpressibleByArgument {
    let section: Int
    let row: Int
    let item: Int

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        section = parts[0]!
        row = parts[1]!
        item = parts.count == 3 ? parts[2]! : 0
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((ControlCharacters.escaped(line) + "\n").utf8))
}

extension DispatchMode: ExpressibleByArgument {}
