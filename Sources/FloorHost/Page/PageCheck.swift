/// What `floorhost check` found: every problem on a page and on each next page it links, as a CMS team
/// would run it in CI before publishing.
public struct PageCheck: Sendable {
    /// The page files checked, in chain order.
    public let pages: [String]
    /// Problems in the pages (plugin load problems are not the page's and are not here).
    public let problems: [Diagnostic]

    /// Decodes the page, then follows `next` links, merging each page as load-more would (so duplicate
    /// items and floors that cannot be continued are found too). A missing or malformed next page, or a
    /// link back to a page already in the chain, is a problem.
    public static func run(file: String, registry: Registry, width: Double = 375) -> PageCheck {
        var pages = [file]
        var inChain: Set<String> = [file]  // `pages` as a set: a long chain is checked in O(pages)
        var problems: [Diagnostic] = []
        func unusable(_ error: PageError) {
            problems.append(Diagnostic(.error, error.description, file: error.file))
        }
        let first: Page
        do {
            first = try PageDecoder.decode(file: file, registry: registry)
        } catch {
            unusable(error)
            return PageCheck(pages: pages, problems: problems)
        }
        let adapter = Adapter(page: first, registry: registry, width: width)
        var current = first
        chain: while let link = current.next {
            let next = PageSession.location(link, relativeTo: current.file)
            guard inChain.insert(next).inserted else {
                problems.append(Diagnostic(.error, "\(current.file): next page '\(link)' links back to \(next), already in the chain",
                                           file: current.file, path: "next"))
                break
            }
            pages.append(next)
            switch PageSource(registry: registry).load(next) {
            case .success(let page):
                adapter.append(page)
                current = page
            case .failure(let error):
                unusable(error)
                break chain
            }
        }
        return PageCheck(pages: pages, problems: first.diagnostics + adapter.diagnostics + problems)
    }
}
