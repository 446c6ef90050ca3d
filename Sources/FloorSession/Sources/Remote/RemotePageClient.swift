import CSystemLibraries
import FloorCore
import FloorRuntime
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Fetches remote pages (http, https) with the system's libcurl (HTTPExchange). One load is one GET per hop,
/// redirects followed here (at most `maxRedirects`, each hop judged by the origin rules, a loop named as
/// one), the whole load, redirects and body included, within `timeout` seconds, and at most `maxBytes`
/// bytes of body, counted as they arrive. Every way a load goes wrong comes back as a PageError naming the
/// URL, with `retryable` set where trying again may help (RetryPolicy decides whether it does) and the
/// server's `Retry-After`.
/// An https server is trusted when the system's CAs or `caFile`'s sign its certificate for the URL's host; a
/// failed handshake says which of those failed (TLSFailure).
/// Threading: a value; `fetch` may run on any task, many at once, and `fetchWaiting` on any thread. It makes
/// no plugin call: decoding the bytes is the caller's, on the session's thread.
public struct RemotePageClient: PageProvider {
    public static let defaultTimeout = 10.0
    public static let maxRedirects = 5

    /// Seconds one load may take, from the request to the last byte (`--load-timeout`).
    public var timeout: Double
    public var maxBytes: Int
    public var rules: OriginRules
    /// CAs trusted for https pages besides the system's (`--ca-file`).
    public var caFile: CAFile?

    public init(
        timeout: Double = defaultTimeout, maxBytes: Int = PageRoot.defaultMaxPageBytes,
        rules: OriginRules = OriginRules(),
        caFile: CAFile? = nil
    ) {
        self.timeout = timeout
        self.maxBytes = max(1, maxBytes)
        self.rules = rules
        self.caFile = caFile
    }

    /// The body of the page at `url` and the URL that answered it (after redirects), or why not.
    ///
    /// The load blocks a thread of its own, started for it, never one of the cooperative pool's, which a
    /// transfer waiting on a slow server for up to `timeout` would hold from every other task. A thread per
    /// load rather than one curl multi handle driven by an event thread: loads are few (one next page at a
    /// time per session, a page at a time per `check` job), a thread costs microseconds beside a network
    /// round trip, and each load keeps to curl's plain blocking API, with no wake-up plumbing to get wrong.
    public func fetch(_ url: URL) async -> Result<FetchedPage, PageError> {
        await withCheckedContinuation { continuation in
            HostThread.start(name: "floorhost-fetch", stackSize: 1 << 20) {
                continuation.resume(returning: self.fetchWaiting(url))
            }
        }
    }

    /// `fetch`, for a caller that may block its thread (the batch CLI, `check`, a session replayed under a
    /// lock): the load runs on the calling thread and needs no other, so waiting here cannot deadlock, even
    /// on a task of the cooperative pool (which it then holds for the load).
    public func fetchWaiting(_ url: URL) -> Result<FetchedPage, PageError> {
        let deadline = Date().addingTimeInterval(min(timeout, 86_400))
        var chain = [url]
        var current = url
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                return .failure(failure(url.absoluteString, "no answer from \(Self.place(current)) \(limit)"))
            }
            let exchange = HTTPExchange(
                url: current.absoluteString,
                headers: ["Accept: application/json", "User-Agent: floorhost/\(Version.host)"],
                timeoutMilliseconds: Int((remaining * 1000).rounded(.up)), maxBytes: maxBytes,
                extraTrust: current.scheme?.lowercased() == "https" ? caFile?.pem : nil)
            switch exchange.perform() {
            case .failure(let why):
                return .failure(pageError(why, url: current, page: url.absoluteString))
            case .success(let answer):
                switch judge(answer, url: current, page: url.absoluteString, chain: chain) {
                case .redirect(let next):
                    chain.append(next)
                    current = next
                case .done(let result):
                    return result
                }
            }
        }
    }

    // MARK: PageProvider

    /// Absolute http(s) URLs with a host.
    public func serves(_ location: String) -> Bool {
        PageLocation.remoteURL(location) != nil
    }

    public func fetch(
        _ location: String,
        linkedFrom: (page: String, link: String)?
    ) async -> Result<FetchedPage, PageError> {
        guard let url = PageLocation.remoteURL(location) else { return .failure(notURL(location)) }
        return await fetch(url)
    }

    public func fetchWaiting(
        _ location: String,
        linkedFrom: (page: String, link: String)?
    ) -> Result<FetchedPage, PageError> {
        guard let url = PageLocation.remoteURL(location) else { return .failure(notURL(location)) }
        return fetchWaiting(url)
    }

    private func notURL(_ location: String) -> PageError {
        PageError(file: location, line: nil, column: nil, reason: "is not an http or https URL")
    }

    /// A failed exchange with `url` (a hop of the load of `page`) as the page's error.
    private func pageError(_ failure: HTTPExchange.Failure, url: URL, page: String) -> PageError {
        if let tls = TLSFailure(failure) {
            return PageError(
                file: page, line: nil, column: nil,
                reason: tls.reason(host: url.host ?? Self.place(url), place: Self.place(url), caFile: caFile),
                retryable: tls.retryable)
        }
        if failure.code == CURLE_URL_MALFORMAT || failure.code == CURLE_UNSUPPORTED_PROTOCOL {
            return PageError(
                file: page, line: nil, column: nil, reason: "is not a URL floorhost can request: \(failure.detail)")
        }
        return self.failure(page, describe(failure, url: url))
    }

    private enum Judgement {
        case redirect(URL)
        case done(Result<FetchedPage, PageError>)
    }

    /// What one answer means: the page, a redirect to follow, or why not.
    private func judge(_ answer: HTTPExchange.Answer, url current: URL, page: String, chain: [URL]) -> Judgement {
        let (code, phrase) = (answer.status, answer.phrase)
        func refuse(_ reason: String) -> Judgement {
            .done(.failure(PageError(file: page, line: nil, column: nil, reason: reason)))
        }
        if [301, 302, 303, 307, 308].contains(code) {
            guard let location = answer.header("Location"),
                let target = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                return refuse(
                    "the server answered \(code) \(phrase) without a Location to go to; fix the redirect on the server"
                )
            }
            let next = PageLocation.canonical(target)
            if let refusal = rules.refusal(hopFrom: current, to: next) {
                return refuse("redirected to '\(location)', which \(refusal)")
            }
            if chain.contains(next) {
                return refuse(
                    "redirect loop: \((chain + [next]).map(\.absoluteString).joined(separator: " → ")); fix the redirects on the server"
                )
            }
            guard chain.count <= Self.maxRedirects else {
                return refuse(
                    "more than \(Self.maxRedirects) redirects (the last to \(next.absoluteString)); fix the redirects on the server"
                )
            }
            return .redirect(next)
        }
        guard (200..<300).contains(code) else {
            let retryable = [408, 425, 429].contains(code) || ((500..<600).contains(code) && code != 501)
            let asked = answer.header("Retry-After").flatMap { RetryAfter.seconds($0) }
            var reason = "the server answered \(code) \(phrase)"
            if retryable, let asked { reason += " and asked to wait \(Self.seconds(asked)) (Retry-After)" }
            if !retryable { reason += "; check the URL and the server" }
            return .done(
                .failure(
                    PageError(
                        file: page, line: nil, column: nil, reason: reason, retryable: retryable,
                        retryAfter: retryable ? asked : nil)))
        }
        // No Accept-Encoding is sent, so the body must come as it is; a compressed one would otherwise be
        // read as JSON and fail at its first byte (`expected a value, found U+001F` for gzip).
        if let encoding = answer.header("Content-Encoding"), encoding.lowercased() != "identity" {
            return refuse(
                "the server sent the page \(encoding)-encoded (Content-Encoding: \(encoding)), which was not "
                    + "asked for (floorhost sends no Accept-Encoding); have the server send it unencoded")
        }
        return .done(.success(FetchedPage(bytes: answer.body, base: current.absoluteString)))
    }

    /// A failure worth trying again: the page did not arrive.
    private func failure(_ page: String, _ reason: String) -> PageError {
        PageError(file: page, line: nil, column: nil, reason: reason, retryable: true)
    }

    /// "within 10 s (--load-timeout)".
    private var limit: String { "within \(Self.seconds(timeout)) (--load-timeout)" }

    /// host:port of `url`, as messages name where a load went.
    private static func place(_ url: URL) -> String {
        PageOrigin(url).map { "\($0.host):\($0.port)" } ?? url.absoluteString
    }

    /// What went wrong, for a person: what curl said, with the body's bytes so far and the length announced
    /// when the answer had begun.
    private func describe(_ failure: HTTPExchange.Failure, url: URL) -> String {
        if failure.tooLarge { return "is larger than \(maxBytes) bytes (--max-page-bytes)" }
        let place = Self.place(url)
        let received = failure.received
        let reset = "the connection to \(place) was reset\(received.map { " \(of($0))" } ?? "")"
        switch failure.code {
        case CURLE_OPERATION_TIMEDOUT:
            guard let received else { return "no answer from \(place) \(limit)" }
            return "the server stopped sending the page \(of(received)); it did not finish \(limit)"
        case CURLE_COULDNT_CONNECT:
            switch failure.osErrno {
            case ECONNREFUSED: return "connection refused: nothing listens at \(place); is the server running?"
            case ETIMEDOUT: return "no answer from \(place) \(limit)"
            default: break
            }
        case CURLE_COULDNT_RESOLVE_HOST:
            return "cannot find the host \(url.host ?? place) (DNS); check the URL"
        // Closed in order (FIN): before any answer, or before the announced length arrived.
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return closed(received, place)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_SSL_CONNECT_ERROR:
            if [ECONNRESET, EPIPE].contains(failure.osErrno) { return reset }
        default:
            break
        }
        return "cannot load it from \(place): \(failure.detail)"
    }

    private func closed(_ received: (count: Int, expected: Int?)?, _ place: String) -> String {
        guard let received else { return "the server at \(place) closed the connection without answering" }
        return "the server closed the connection \(of(received)), before the page was complete"
    }

    private func of(_ received: (count: Int, expected: Int?)) -> String {
        "after \(received.count)\(received.expected.map { " of \($0)" } ?? "") bytes"
    }

    package static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : PrintfFormat.string("%.1f s", value)
    }
}
