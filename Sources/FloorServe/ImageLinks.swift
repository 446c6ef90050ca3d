import FloorRuntime
import FloorSession
import Foundation

/// Where the tab loads a picture a page names (ARCHITECTURE.md, "Trust model"): an image file under the
/// page root, named relative to the page (`images/banner.svg`), from `/image/<path>` (ServedImage); an
/// http(s) URL on an origin `--allow-origin` names, from there. Anything else (another origin, another
/// scheme, a path out of the root, a file that is missing, not regular or too large, a name that is not an
/// image) has no address: the placeholder naming it stays, and nothing of the file is quoted.
package struct ImageLinks: Sendable {
    package let root: PageRoot
    package let rootArgument: String
    package let allowed: Set<PageOrigin>

    package init(root: PageRoot, rootArgument: String, allowed: Set<PageOrigin>) {
        self.root = root
        self.rootArgument = rootArgument
        self.allowed = allowed
    }

    /// The address of `source` as the page file `page` names it, or nil.
    package func link(_ source: String, page: String) -> String? {
        guard !source.isEmpty, source.utf8.count <= 2048, !source.contains(where: \.isNewline) else { return nil }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            guard let url = URL(string: source), let origin = PageOrigin(url), allowed.contains(origin) else {
                return nil
            }
            return url.absoluteString
        }
        // A path relative to the page, of an image type, inside the root: no scheme, query or fragment.
        guard !source.hasPrefix("/"), !source.contains(":"), !source.contains("?"), !source.contains("#"),
            ServedImage.contentType(of: source) != nil, !page.hasPrefix("http://"), !page.hasPrefix("https://")
        else { return nil }
        let file = PageLocation.location(of: source, relativeTo: page)
        guard let relative = ServedImage.relativePath(of: file, root: root), ServedImage.servable(file, root: root)
        else { return nil }
        return "/image/" + PreviewPages.urlPath(relative)
    }
}
