import FloorCore
import FoundationEssentials

/// Where a page is: a file (a path, relative to the working directory or absolute, read through the page
/// root) or a remote page (an absolute http:// or https:// URL, fetched over HTTP). Locations travel as
/// strings (events, LoadMore, json output name them as written here); this is how one is told apart and
/// how a page's `next` is resolved against the page that names it: `resolve` is the one link resolver
/// (sessions, reloads, `check`, serve's page index all go through it).
public enum PageLocation: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case remote(URL)

    /// `location` as a page location: an http(s) URL with a host is remote, anything else a file path.
    public init(_ location: String) {
        if let url = Self.remoteURL(location) { self = .remote(url) } else { self = .file(location) }
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .remote(let url): url.absoluteString
        }
    }

    /// The absolute http(s) URL `text` names, or nil when it is not one (no scheme, another scheme, no host).
    package static func remoteURL(_ text: String) -> URL? {
        guard let scheme = Self.scheme(of: text), scheme == "http" || scheme == "https",
            let url = URL(string: text), url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// The scheme `text` starts with (`http` in `http://x`, lowercased), or nil for a plain path.
    package static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        // A Windows-style drive ("C:") is not a scheme; nor is anything without "//" after a one-letter one.
        return scheme.count > 1 ? scheme.lowercased() : nil
    }

    /// What `next`, as written on the page at `page`, names. On a remote page it is a URL reference resolved
    /// against the page's URL (RFC 3986: "p2.json", "/feed/p2.json", "//host/x", "https://other/x"); on a
    /// file page a path relative to the page's folder, unless it is itself an absolute URL (which the origin
    /// rules then judge). Nil when `next` cannot be a location at all on a remote page (not a URL reference).
    public static func resolve(_ next: String, relativeTo page: String) -> PageLocation? {
        switch PageLocation(page) {
        case .remote(let base):
            guard let url = URL(string: next, relativeTo: base)?.absoluteURL else { return nil }
            // Another scheme (file:, ftp:, data:) stays what it is, for the origin rules to refuse by name.
            return remoteURL(url.absoluteString).map { .remote(Self.canonical($0)) } ?? .file(url.absoluteString)
        case .file(let path):
            if let url = remoteURL(next) { return .remote(canonical(url)) }
            let folder = PathText.deletingLastComponent(of: path)
            let resolved =
                next.hasPrefix("/") || folder.isEmpty
                ? next : PathText.appending(next, to: folder)
            let standardized = PathText.standardized(resolved)
            return .file(standardized.isEmpty ? resolved : standardized)
        }
    }

    /// `resolve`, spelled as the location string that sessions, LoadMore, events and `check` carry (one
    /// canonical spelling, so that "a/../b.json" and "b.json" are one location). A `next` that is no
    /// location at all on a remote page stays as written: the origin rules refuse it when it is loaded.
    public static func location(of next: String, relativeTo page: String) -> String {
        resolve(next, relativeTo: page)?.description ?? next
    }

    /// A location as a person names it: its file name (the last part of a URL's path), or the whole URL
    /// when its path names none.
    public static func name(_ location: String) -> String {
        if case .remote(let url) = PageLocation(location) {
            return url.lastPathComponent.isEmpty || url.lastPathComponent == "/" ? location : url.lastPathComponent
        }
        return PathText.lastComponent(of: location)
    }

    /// One spelling per URL, so that "a/../b.json" and "b.json" are one location for LoadMore's
    /// once-per-location rule: dot segments removed, the fragment dropped, scheme and host lowercased.
    package static func canonical(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        parts.fragment = nil
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if parts.path.isEmpty { parts.path = "/" }
        parts.path = removingDotSegments(parts.path)
        return parts.url ?? url
    }

    /// RFC 3986 5.2.4 on an absolute path.
    package static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            if segment == "." {
                if last { output.append("") }
                continue
            }
            if segment == ".." {
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
                continue
            }
            output.append(segment)
        }
        return "/" + output.joined(separator: "/")
    }
}
