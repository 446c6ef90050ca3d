import FloorRuntime
import FoundationEssentials

/// Where pages come from: the one place that decides which provider (PageProvider) fetches a location.
/// A file location is read through the page root (FilePages), a remote one (http, https) fetched by
/// `remote` (RemotePageClient); a `next` location, resolved against the page that names it
/// (PageLocation.resolve), is judged by the origin rules before any provider is asked. A source made
/// without a root takes the first page's folder (`rooted(at:)`, which PageSession and PageCheck call with
/// their first page).
///
/// A load is two steps: `fetch` (the bytes; no plugin call, any thread, asynchronous for the interactive
/// front ends) and `decode` (plugin calls: the session's thread). `load` is both, blocking, for the batch
/// CLI, `check`, `diff`, reloads and a first page. Threading: a value.
public struct PageSource: Sendable {
    package let registry: Registry
    /// Nil until `rooted(at:)`; `load` never reads a file without one.
    public let root: PageRoot?
    /// Remote pages: time limit, size limit, origin rules.
    public let remote: RemotePageClient
    /// A CMS's own fields (`--allow-field`): no diagnostic for them (PageDecoder).
    public let allowed: AllowedFields

    public init(
        registry: Registry, root: PageRoot? = nil, remote: RemotePageClient? = nil,
        allowed: AllowedFields = AllowedFields()
    ) {
        self.registry = registry
        self.root = root
        self.allowed = allowed
        self.remote = remote ?? RemotePageClient(maxBytes: root?.maxPageBytes ?? PageRoot.defaultMaxPageBytes)
    }

    /// This source, with the folder of `firstPage` as its root unless it has one.
    public func rooted(at firstPage: String) -> PageSource {
        root == nil
            ? PageSource(registry: registry, root: PageRoot(around: firstPage), remote: remote, allowed: allowed) : self
    }

    /// The providers, asked in order; the first that serves a location fetches it. The one place a kind
    /// of source is chosen: a new kind (an object store, a CMS API) is one more line here.
    package var providers: [any PageProvider] {
        [remote, FilePages(root: root)]
    }

    /// The provider that fetches `location`.
    package func provider(for location: String) -> any PageProvider {
        providers.first { $0.serves(location) } ?? FilePages(root: root)
    }

    /// The bytes of the page at `location`, without blocking the calling task. With `linkedFrom` (the page
    /// whose `next` named it, and the link as written), a location the trust rules refuse (page root,
    /// origin) is that page's problem: "home.json: next: '../x.json' resolves outside the page root ...",
    /// never the refused page's content.
    public func fetch(_ location: String, linkedFrom: (page: String, link: String)? = nil) async -> Result<
        FetchedPage, PageError
    > {
        if let refusal = refusal(location, linkedFrom: linkedFrom) { return .failure(refusal) }
        return await provider(for: location).fetch(location, linkedFrom: linkedFrom)
    }

    /// `fetch`, blocking the calling thread (safe on any thread: see PageProvider.fetchWaiting).
    public func fetchWaiting(_ location: String, linkedFrom: (page: String, link: String)? = nil) -> Result<
        FetchedPage, PageError
    > {
        if let refusal = refusal(location, linkedFrom: linkedFrom) { return .failure(refusal) }
        return provider(for: location).fetchWaiting(location, linkedFrom: linkedFrom)
    }

    /// The page fetched, named by its base (the file, or the URL that answered). With `reusing` (a reload,
    /// a diff), floors unchanged since that adapter's pages keep their models (ReusableFloors). Calls
    /// plugins: the session's thread only.
    public func decode(_ fetched: FetchedPage, reusing: ReusableFloors? = nil) -> Result<Page, PageError> {
        decode(fetched, reusing: reusing, handingBack: false)
    }

    /// `handingBack`: no one reads `fetched`'s bytes after this (PageDecoder's `handingBack`).
    private func decode(_ fetched: FetchedPage, reusing: ReusableFloors?, handingBack: Bool) -> Result<Page, PageError>
    {
        Result { () throws(PageError) in
            try PageDecoder.decode(
                bytes: fetched.bytes, file: fetched.base, registry: registry, reusing: reusing, allowed: allowed,
                handingBack: handingBack)
        }
    }

    /// Fetches (blocking) and decodes the page at `location`. The bytes fetched are this call's alone, so
    /// each floor's are handed back once it is decoded.
    public func load(
        _ location: String, linkedFrom: (page: String, link: String)? = nil,
        reusing: ReusableFloors? = nil
    ) -> Result<Page, PageError> {
        fetchWaiting(location, linkedFrom: linkedFrom).flatMap { decode($0, reusing: reusing, handingBack: true) }
    }

    /// Why the origin rules refuse `location` as the `next` of `linkedFrom.page`.
    private func refusal(_ location: String, linkedFrom: (page: String, link: String)?) -> PageError? {
        guard let linkedFrom,
            let why = remote.rules.refusal(from: PageLocation(linkedFrom.page), to: PageLocation(location))
        else { return nil }
        return PageError(
            file: linkedFrom.page, line: nil, column: nil, reason: "next: '\(linkedFrom.link)' \(why)", path: "next")
    }
}
