import FloorRuntime

/// One kind of place pages come from: files under the page root (FilePages), http(s) servers
/// (RemotePageClient), or whatever a new kind adds (an object store, a CMS API). A provider fetches bytes
/// and says where they came from (FetchedPage.base); it decodes nothing and calls no plugin. Which provider
/// a location goes to is decided in one place, PageSource.providers: a new kind of source is one new file
/// with a type conforming to this, and one line there.
///
/// Trust: PageSource applies the origin rules before a provider is asked; a provider applies its own limits
/// (the page root, a size limit, a time limit) and, given `linkedFrom` (the page whose `next` named the
/// location, and the link as written), names a refusal as that page's problem rather than the location's.
/// Threading: a value; `fetch` may run on any task, many at once.
public protocol PageProvider: Sendable {
    /// Whether `location` is this provider's to fetch (PageSource asks the providers in order; the first
    /// that says yes fetches it).
    func serves(_ location: String) -> Bool

    /// The bytes of the page at `location`, without blocking the calling task (the interactive front ends).
    func fetch(_ location: String, linkedFrom: (page: String, link: String)?) async -> Result<FetchedPage, PageError>

    /// `fetch`, blocking the calling thread; safe on any thread, a task of the cooperative pool included
    /// (the batch CLI, `check`, a session replayed under a lock).
    func fetchWaiting(_ location: String, linkedFrom: (page: String, link: String)?) -> Result<FetchedPage, PageError>
}
