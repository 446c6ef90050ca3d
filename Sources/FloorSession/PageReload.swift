import FloorLayout
import FloorRuntime

extension PageSession {
    /// Reads the page again and applies what changed (the view's `r` and `--watch`, serve's live reload):
    /// only inserted and updated rows are measured, every other row keeps its cached heights at every
    /// width (Adapter.reload), and the screen stays on the same content (ReloadAnchor).
    ///
    /// Next pages already loaded are read again too, so that a reload never loses what the user scrolled
    /// to: as many next pages as were loaded, following the `next` links as they are *now*, from the first
    /// page (a CMS edit may have changed the chain). A next page that no longer reads (gone, malformed,
    /// refused by the page root) ends the chain there: it becomes the page load-more fetches next, so its
    /// failure shows, with its reason, when the user scrolls there, and retry works as for any load. A load
    /// in flight is dropped and asked for again if the load-more rules still say so.
    ///
    /// Throws when the first page is unusable (missing, malformed): then nothing changes, and the page as
    /// it was stays on screen. Threading: as the session's.
    @discardableResult
    public func reload() throws(PageError) -> PageDiff {
        let first = adapter.page.file
        // Floors unchanged since the page on screen keep their models (ReusableFloors): decoding, expanding
        // and destroying cost O(floors changed).
        let page = try source.load(first, reusing: ReusableFloors(adapter)).get()
        var pages = [page]
        var loaded: [String] = []
        var from = first
        var link = page.next
        var visited: Set<String> = [first]
        while loaded.count < adapter.pages.count - 1, let written = link {
            let location = PageLocation.location(of: written, relativeTo: from)
            guard visited.insert(location).inserted,
                case .success(let next) = source.load(location, linkedFrom: (from, written))
            else { break }
            pages.append(next)
            loaded.append(location)
            from = next.file  // where it came from (a redirect's target): its next resolves against that
            link = next.next
        }
        return show(
            reloaded: pages, loaded: loaded, next: link.map { PageLocation.location(of: $0, relativeTo: from) },
            link: link.map { (from, $0) })
    }
}
