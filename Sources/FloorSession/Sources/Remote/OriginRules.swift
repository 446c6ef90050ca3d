import FoundationEssentials

/// Which remote pages a chain of pages may reach (ARCHITECTURE.md, "Trust model"): a remote page's `next` (and every
/// redirect on the way to it) stays on the origin of the page that named it, or goes to an origin
/// `--allow-origin` names; a file page may name a URL only on an allowed origin; a remote page never names
/// a file (nor any scheme but http and https). File pages naming files are the page root's business.
/// Threading: a value.
public struct OriginRules: Sendable, Equatable {
    /// Origins any page may link to (`--allow-origin`), besides a remote page's own.
    public let allowed: Set<PageOrigin>

    public init(allowed: Set<PageOrigin> = []) {
        self.allowed = allowed
    }

    /// Why the page at `page` may not link to `target`, or nil when it may. The reason starts after
    /// "'<link>' " in a message ("home.json: next: '<link>' <reason>").
    public func refusal(from page: PageLocation, to target: PageLocation) -> String? {
        switch (page, target) {
        case (.file, .file):
            return nil
        case (.file, .remote(let url)):
            guard let origin = PageOrigin(url), !allowed.contains(origin) else { return nil }
            return
                "is a remote page, and a page file may link only to origins --allow-origin names (--allow-origin \(origin) allows this one)"
        case (.remote(let from), .file(let path)):
            let what = PageLocation.scheme(of: path).map { "a \($0): location" } ?? "not a URL"
            return
                "is \(what); a remote page (\(PageOrigin(from).map(String.init(describing:)) ?? from.absoluteString)) links only to http and https pages"
        case (.remote(let from), .remote(let url)):
            return refusal(hopFrom: from, to: url)
        }
    }

    /// Why a request to `from` may not go on to `to` (a page's next, or a redirect), or nil.
    package func refusal(hopFrom from: URL, to url: URL) -> String? {
        guard let target = PageOrigin(url) else { return "is not an http or https URL" }
        guard let source = PageOrigin(from) else { return nil }
        if target == source || allowed.contains(target) { return nil }
        return
            "is on origin \(target), not \(source); a remote page's next stays on its own origin (--allow-origin \(target) allows this one)"
    }
}
