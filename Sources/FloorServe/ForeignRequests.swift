import Hummingbird

/// Refuses what another web site can make a browser send, before any route runs:
///
/// - no `Host` (an HTTP/1.0 request without one): 400;
/// - a `Host` that is not one of `ServedHosts` (a DNS-rebinding page): 403;
/// - a request that changes something or creates a session (any method but GET and HEAD, and
///   `GET /page/...`) with a foreign `Origin` (not the request's own `Host`, nor an `--allow-host` name;
///   `null` included) or with `Sec-Fetch-Site` other than `same-origin` or `none` (typed or bookmarked): 403.
///
/// A request without `Origin` or `Sec-Fetch-Site` (curl, a script) is judged by its `Host` alone: browsers
/// send both on every request this could be fooled by. Each refusal says why in one line of JSON.
package struct ForeignRequests<Context: RequestContext>: RouterMiddleware {
    package let hosts: ServedHosts

    package init(_ hosts: ServedHosts) { self.hosts = hosts }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if let refusal = refusal(request) { return refusal.response }
        return try await next(request, context)
    }

    package func refusal(_ request: Request) -> APIError? {
        guard let authority = request.head.authority, !authority.isEmpty else {
            return APIError(status: .badRequest, message: "the request has no Host header (HTTP/1.1 needs one)")
        }
        guard hosts.admits(authority: authority) else {
            return APIError(
                status: .forbidden,
                message:
                    "this preview answers only to localhost, 127.0.0.1, [::1], the address it listens on and the "
                    + "names given with --allow-host; the request's Host is none of them")
        }
        guard Self.changesState(request) else { return nil }
        if let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" })?.value,
            site != "same-origin", site != "none"
        {
            return APIError(
                status: .forbidden,
                message:
                    "a request from another site (Sec-Fetch-Site: \(site == "same-site" ? "same-site" : "cross-site")) "
                    + "may not open or change a preview session; open the page from the preview's own index")
        }
        if let origin = request.headers[.origin], !sameOrigin(origin, host: authority) {
            return APIError(
                status: .forbidden,
                message:
                    "a request from another origin may not open or change a preview session; open the page from "
                    + "the preview's own index (or name a reverse proxy's host with --allow-host)")
        }
        return nil
    }

    /// Any method but GET and HEAD, and the page route, which creates a session.
    package static func changesState(_ request: Request) -> Bool {
        if request.method != .get && request.method != .head { return true }
        return request.uri.path.hasPrefix("/page/")
    }

    /// Whether `origin` (`scheme://authority`) is the request's own host and port, or an `--allow-host` name
    /// (a reverse proxy in front, whose own address the browser sees).
    private func sameOrigin(_ origin: String, host authority: String) -> Bool {
        let scheme: String
        let rest: Substring
        if origin.hasPrefix("http://") {
            (scheme, rest) = ("http", origin.dropFirst(7))
        } else if origin.hasPrefix("https://") {
            (scheme, rest) = ("https", origin.dropFirst(8))
        } else {
            return false  // "null" (a sandboxed frame, a file), or no web origin at all
        }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let (originName, originPort) = ServedHosts.split(String(rest)),
            let (hostName, hostPort) = ServedHosts.split(authority)
        else { return false }
        if originName.lowercased() == hostName.lowercased() && (originPort ?? defaultPort) == (hostPort ?? 80) {
            return true
        }
        return hosts.allowed.contains(originName.lowercased())
    }
}
