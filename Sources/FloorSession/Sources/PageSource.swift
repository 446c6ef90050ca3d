import Foundation
import FloorRuntime

/// Where pages come from: a file location is read through the page root (see PageRoot), a remote one
/// (http, https) fetched by `remote` (RemotePageClient); a `next` location is resolved against the page
/// that names it (PageLocation) and judged by the origin rules before anything is read. A source made
/// without a root takes the first page's folder (`rooted(at:)`, which PageSession and PageCheck call with
/// their first page).
///
/// A load is two steps: `fetch` (the bytes; no plugin call, any thread, asynchronous for the interactive
/// front ends) and `decode` (plugin calls: the session's thread). `load` is both, blocking, for the batch
/// CLI and `check`. Threading: a value.
public struct PageSource: Sendable {
    package let registry: Registry
    /// Nil until `rooted(at:)`; `load` never reads a file without one.
    public let root: PageRoot?
    /// Remote pages: time limit, size limit, origin rules.
    public let remote: RemotePageClient

    public init(registry: Registry, root: PageRoot? = nil, remote: RemotePageClient? = nil) {
        self.registry = registry
        self.root = root
        self.remote = remote ?? RemotePageClient(maxBytes: root?.maxPageBytes ?? PageRoot.defaultMaxPageBytes)
    }

    /// This source, with the folder of `firstPage` as its root unless it has one.
    public func rooted(at firstPage: String) -> PageSource {
        root == nil ? PageSource(registry: registry, root: PageRoot(around: firstPage), remote: remote) : self
    }

    /// The file a page file's `next` names.
    public static func resolve(_ next: String, relativeTo page: String) -> String {
        if next.hasPrefix("/") { return next }
        let folder = (page as NSString).deletingLastPathComponent
        return folder.isEmpty ? next : (folder as NSString).appendingPathComponent(next)
    }

    /// The bytes of the page at `location`, without blocking the calling task. With `linkedFrom` (the page
    /// whose `next` named it, and the link as written), a location the trust rules refuse (page root,
    /// origin) is that page's problem: "home.json: next: '../x.json' resolves outside the page root ...",
    /// never the refused page's content.
    public func fetch(_ location: String, linkedFrom: (page: String, link: String)? = nil) async -> Result<FetchedPage, PageError> {
        if let refusal = refusal(location, linkedFrom: linkedFrom) { return .failure(refusal) }
        switch PageLocation(location) {
        case .remote(let url): return await remote.fetch(url)
        case .file(let path): return read(path, linkedFrom: linkedFrom)
        }
    }

    /// `fetch`, blocking the calling thread (safe on any thread: see RemotePageClient.fetchWaiting).
    public func fetchWaiting(_ location: String, linkedFrom: (page: String, link: String)? = nil) -> Result<FetchedPage, PageError> {
        if let refusal = refusal(location, linkedFrom: linkedFrom) { return .failure(refusal) }
        switch PageLocation(location) {
        case .remote(let url): return remote.fetchWaiting(url)
        case .file(let path): return read(path, linkedFrom: linkedFrom)
        }
    }

    /// The page fetched, named by its base (the file, or the URL that answered). Calls plugins: the
    /// session's thread only.
    public func decode(_ fetched: FetchedPage) -> Result<Page, PageError> {
        Result { () throws(PageError) in try PageDecoder.decode(bytes: fetched.bytes, file: fetched.base, registry: registry) }
    }

    /// Fetches (blocking) and decodes the page at `location`.
    public func load(_ location: String, linkedFrom: (page: String, link: String)? = nil) -> Result<Page, PageError> {
        fetchWaiting(location, linkedFrom: linkedFrom).flatMap { decode($0) }
    }

    /// Why the origin rules refuse `location` as the `next` of `linkedFrom.page`.
    private func refusal(_ location: String, linkedFrom: (page: String, link: String)?) -> PageError? {
        guard let linkedFrom,
              let why = remote.rules.refusal(from: PageLocation(linkedFrom.page), to: PageLocation(location)) else { return nil }
        return PageError(file: linkedFrom.page, line: nil, column: nil, reason: "next: '\(linkedFrom.link)' \(why)", path: "next")
    }

    private func read(_ file: String, linkedFrom: (page: String, link: String)?) -> Result<FetchedPage, PageError> {
        let root = root ?? PageRoot(around: file)
        do {
            return .success(FetchedPage(bytes: try root.read(file), base: file))
        } catch {
            guard error.isTrustRefusal, let linkedFrom else {
                // A missing or unreadable file may be there on the next try (a CMS still writing it).
                return .failure(PageError(file: file, line: nil, column: nil, reason: error.description, retryable: !error.isTrustRefusal))
            }
            return .failure(PageError(file: linkedFrom.page, line: nil, column: nil,
                                      reason: "next: '\(linkedFrom.link)' \(error.description)", path: "next"))
        }
    }
}
