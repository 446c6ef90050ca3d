import ArgumentParser
import FloorRuntime
import FloorSession

/// Where render and check may read pages from (see PageRoot).
package struct PageRootOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Read pages (the first and every next page) only from this folder; a page that resolves outside it, after symlinks, is refused.",
            discussion: "Default: the first page's folder.", valueName: "dir"))
    package var pageRoot: String?

    @Option(help: "Refuse a page file larger than this many bytes.")
    package var maxPageBytes = PageRoot.defaultMaxPageBytes

    @Option(help: .init(PageRoot.maxPagesHelp)) package var maxPages = PageRoot.defaultMaxPages

    package func validate() throws {
        if maxPageBytes < 1 { throw ValidationError("--max-page-bytes must be 1 or more") }
        if maxPages < 1 { throw ValidationError("--max-pages must be 1 or more") }
    }

    /// The root for `firstPage`; a --page-root that is not a folder exits 2 (the input is unusable).
    package func root(for firstPage: String) throws -> PageRoot {
        guard let pageRoot else { return PageRoot(around: firstPage, maxPageBytes: maxPageBytes, maxPages: maxPages) }
        return try servedRoot(pageRoot, maxPageBytes: maxPageBytes, maxPages: maxPages, namedBy: "--page-root")
    }
}

/// The folder `serve` (and its worker) serves pages from, or --page-root; one that is not a folder exits 2.
package func servedRoot(_ folder: String, maxPageBytes: Int, maxPages: Int, namedBy: String = "serve's ROOT") throws
    -> PageRoot
{
    var root = try unusableInput { try PageRoot(folder: folder, maxPageBytes: maxPageBytes, namedBy: namedBy) }
    root.maxPages = maxPages
    return root
}
