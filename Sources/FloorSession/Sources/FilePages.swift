import FloorRuntime

/// Pages that are files: read through the page root (a regular file inside it, of at most its
/// maxPageBytes; see PageRoot), or, without a root, through the page's own folder. A read that fails may
/// work on the next try (a CMS still writing the file): retryable. A refusal by the root is not, and when
/// a page's `next` named the file it is that page's problem ("home.json: next: '../x.json' resolves
/// outside the page root ..."), never a byte of the refused file. Threading: a value.
public struct FilePages: PageProvider {
    public let root: PageRoot?

    public init(root: PageRoot?) {
        self.root = root
    }

    /// Every location that is not a URL another provider serves is a path.
    public func serves(_ location: String) -> Bool {
        if case .file = PageLocation(location) { true } else { false }
    }

    public func fetch(
        _ location: String,
        linkedFrom: (page: String, link: String)?
    ) async -> Result<FetchedPage, PageError> {
        fetchWaiting(location, linkedFrom: linkedFrom)
    }

    public func fetchWaiting(
        _ file: String,
        linkedFrom: (page: String, link: String)?
    ) -> Result<FetchedPage, PageError> {
        let root = root ?? PageRoot(around: file)
        do {
            return .success(FetchedPage(bytes: try root.read(file), base: file))
        } catch {
            guard error.isTrustRefusal, let linkedFrom else {
                return .failure(
                    PageError(
                        file: file, line: nil, column: nil, reason: error.description,
                        retryable: !error.isTrustRefusal))
            }
            return .failure(
                PageError(
                    file: linkedFrom.page, line: nil, column: nil,
                    reason: "next: '\(linkedFrom.link)' \(error.description)", path: "next"))
        }
    }
}
