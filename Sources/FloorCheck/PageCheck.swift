import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import HostContract

/// What `floorhost check` found: every problem on a page and on each next page it links, as a CMS team
/// would run it in CI before publishing. It makes every call a render makes (decode, validate, expand,
/// heights, next-page extend, every row's cell selector into a canvas, tappable items and each item's
/// action), so a plugin that crashes or hangs on any of them fails check as it would fail a render.
public struct PageCheck: Sendable {
    /// The page files checked, in chain order.
    public let pages: [String]
    /// Problems in the pages (plugin load problems are not the page's and are not here).
    public let problems: [Diagnostic]

    public init(pages: [String], problems: [Diagnostic]) {
        self.pages = pages
        self.problems = problems
    }

    /// Decodes the page, then follows `next` links, merging each page as load-more would (so duplicate
    /// items and floors that cannot be continued are found too), then draws every row and performs every
    /// tappable item's action. A missing, refused or malformed next page, a link back to a page
    /// already in the chain, or a chain longer than the root's `maxPages`, is a problem.
    /// Pages are read through `root` (default: the first page's folder); a next page it refuses is a
    /// problem of the page that links it ("home.json: next: ...").
    /// A remote first page or next page is fetched by `remote` (default: its defaults).
    public static func run(
        file: String, registry: Registry, root: PageRoot? = nil, remote: RemotePageClient? = nil, width: Double = 375,
        allowed: AllowedFields = AllowedFields()
    ) -> PageCheck {
        let source = PageSource(registry: registry, root: root, remote: remote, allowed: allowed).rooted(at: file)
        var pages = [file]
        var inChain: Set<String> = [file]  // `pages` as a set: a long chain is checked in O(pages)
        var problems: [Diagnostic] = []
        func unusable(_ error: PageError) {
            let position = error.line.map {
                SourcePosition(line: $0, column: error.column ?? 1, offset: error.offset ?? 0)
            }
            problems.append(
                Diagnostic(
                    .error, "\(error.description) (left out)", file: error.file, path: error.path,
                    consequence: .leftOut,
                    position: position))
        }
        let first: Page
        do {
            first = try source.load(file).get()
        } catch {
            unusable(error)
            return PageCheck(pages: pages, problems: problems)
        }
        let adapter = Adapter(page: first, registry: registry, width: width)
        var current = first
        chain: while let link = current.next {
            let next = PageLocation.location(of: link, relativeTo: current.file)
            guard inChain.insert(next).inserted else {
                problems.append(
                    Diagnostic(
                        .error,
                        "\(current.file): next: next page '\(link)' links back to \(next), already in the chain (the chain stops here)",
                        file: current.file, path: "next", consequence: .chainStops))
                break
            }
            let maxPages = source.root?.maxPages ?? PageRoot.defaultMaxPages
            guard pages.count < maxPages else {
                problems.append(
                    Diagnostic(
                        .error,
                        "\(current.file): next: next page '\(next)' not loaded: the chain has \(maxPages) pages, the "
                            + "limit (--max-pages N loads more) (the chain stops here)",
                        file: current.file, path: "next", consequence: .chainStops))
                break
            }
            pages.append(next)
            switch source.load(next, linkedFrom: (current.file, link)) {
            case .success(let page):
                adapter.append(page)
                current = page
            case .failure(let error) where error.file == current.file:
                // Refused by the trust rules: already the linking page's problem ("home.json: next: ...").
                problems.append(
                    Diagnostic(
                        .error, "\(error.description) (the chain stops here)", file: error.file, path: "next",
                        consequence: .chainStops))
                break chain
            case .failure(let error):
                // The page and the field that link it, then what is wrong with the page linked.
                problems.append(
                    Diagnostic(
                        .error, "\(current.file): next: \(error.description) (the chain stops here)",
                        file: current.file, path: "next", consequence: .chainStops))
                break chain
            }
        }
        exerciseRows(of: adapter)
        return PageCheck(pages: pages, problems: first.diagnostics + adapter.diagnostics + problems)
    }

    /// The most items of one row whose action check performs (a row claiming more is not walked further).
    public static let maxTappedItemsPerRow = 1024

    /// The calls a render makes after layout: each row's cell selector into a canvas, as text and json
    /// output draw it; its tappable-items selector, as json output and --tap call it; and the action of
    /// each item, as --tap performs it. What they return is the plugin's business (an item may have no
    /// action); a crash or a hang in them is caught by the supervisor and becomes a problem.
    package static func exerciseRows(of adapter: Adapter) {
        for r in 0..<adapter.rowCount {
            adapter.drawCell(row: r, into: RecordingCanvas())
            let items = min(adapter.tappableItems(row: r), maxTappedItemsPerRow)
            guard items > 0 else { continue }
            let row = adapter.describe(row: r)
            for item in 0..<items { _ = adapter.tap(section: row.section, row: row.row, item: item) }
        }
    }
}
