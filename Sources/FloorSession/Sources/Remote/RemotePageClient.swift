import AsyncHTTPClient
import FloorCore
import FloorRuntime
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Fetches remote pages (http, https) with AsyncHTTPClient. One load is one GET, redirects followed here
/// (at most `maxRedirects`, each hop judged by the origin rules, a loop named as one), the whole load,
/// redirects and body included, within `timeout` seconds, and at most `maxBytes` bytes of body, counted as
/// they arrive. Every way a load goes wrong comes back as a PageError naming the URL, with `retryable`
/// set where trying again may help (RetryPolicy decides whether it does) and the server's `Retry-After`.
/// An https server is trusted when the system's CAs or `caFile`'s sign its certificate for the URL's host; a
/// failed handshake says which of those failed (TLSFailure).
/// Threading: a value; `fetch` may run on any task, many at once. It makes no plugin call: decoding the
/// bytes is the caller's, on the session's thread.
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

    /// One client for the process (a pool of connections, kept alive between next pages). It follows no
    /// redirect itself, so that each hop is judged here, and does not retry connecting on its own: retries
    /// are RetryPolicy's, visible as events. Never shut down: it lives as long as the process. A --ca-file
    /// goes with each https request (its TLS configuration), which the client pools connections by.
    package static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The body of the page at `url` and the URL that answered it (after redirects), or why not.
    public func fetch(_ url: URL) async -> Result<FetchedPage, PageError> {
        // `load` never fails its future: every failure is a value.
        (try? await load(url).get()) ?? .failure(failure(url.absoluteString, "the load was cancelled"))
    }

    /// `fetch`, for a caller that may block its thread (the batch CLI, `check`, a session replayed under a
    /// lock): the load runs on the client's event loops, so waiting here needs no other thread, even on
    /// a task of the cooperative pool.
    public func fetchWaiting(_ url: URL) -> Result<FetchedPage, PageError> {
        (try? load(url).wait()) ?? .failure(failure(url.absoluteString, "the load was cancelled"))
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

    /// The load of `url` as one future that always succeeds with the body or the failure: one GET per hop,
    /// redirects followed here, all within one deadline.
    package func load(_ url: URL) -> EventLoopFuture<Result<FetchedPage, PageError>> {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(min(timeout, 86_400) * 1e9))
        return hop(url, page: url.absoluteString, chain: [url], deadline: deadline)
    }

    private func hop(_ current: URL, page: String, chain: [URL], deadline: NIODeadline) -> EventLoopFuture<
        Result<FetchedPage, PageError>
    > {
        let loop = Self.client.eventLoopGroup.next()
        let collector = PageBodyCollector(maxBytes: maxBytes)
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: current.absoluteString, method: .GET,
                headers: ["Accept": "application/json", "User-Agent": "floorhost/\(Version.host)"],
                tlsConfiguration: current.scheme?.lowercased() == "https" ? caFile?.tlsConfiguration : nil)
        } catch {
            return loop.makeSucceededFuture(
                .failure(
                    PageError(
                        file: page, line: nil, column: nil, reason: "is not a URL floorhost can request: \(error)")))
        }
        return Self.client.execute(
            request: request, delegate: collector, eventLoop: .delegate(on: loop), deadline: deadline
        ).futureResult
            .flatMap { answer -> EventLoopFuture<Result<FetchedPage, PageError>> in
                switch self.judge(answer, url: current, page: page, chain: chain) {
                case .redirect(let next): return self.hop(next, page: page, chain: chain + [next], deadline: deadline)
                case .done(let result): return loop.makeSucceededFuture(result)
                }
            }
            .recover { error in
                if let tls = TLSFailure(error) {
                    let place = PageOrigin(current).map { "\($0.host):\($0.port)" } ?? current.absoluteString
                    return .failure(
                        PageError(
                            file: page, line: nil, column: nil,
                            reason: tls.reason(host: current.host ?? place, place: place, caFile: self.caFile),
                            retryable: tls.retryable))
                }
                return .failure(self.failure(page, self.describe(error, url: current, received: collector.progress)))
            }
    }

    private enum Judgement {
        case redirect(URL)
        case done(Result<FetchedPage, PageError>)
    }

    /// What one answer means: the page, a redirect to follow, or why not.
    private func judge(_ answer: PageBodyCollector.Answer, url current: URL, page: String, chain: [URL]) -> Judgement {
        let status = answer.head.status
        func refuse(_ reason: String) -> Judgement {
            .done(.failure(PageError(file: page, line: nil, column: nil, reason: reason)))
        }
        if [301, 302, 303, 307, 308].contains(status.code) {
            guard let location = answer.head.headers.first(name: "Location"),
                let target = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                return refuse(
                    "the server answered \(status.code) \(status.reasonPhrase) without a Location to go to; fix the redirect on the server"
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
        guard (200..<300).contains(status.code) else {
            let retryable =
                [408, 425, 429].contains(status.code) || ((500..<600).contains(status.code) && status.code != 501)
            let asked = answer.head.headers.first(name: "Retry-After").flatMap { RetryAfter.seconds($0) }
            var reason = "the server answered \(status.code) \(status.reasonPhrase)"
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
        if let encoding = answer.head.headers.first(name: "Content-Encoding"), encoding.lowercased() != "identity" {
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

    /// What went wrong, for a person: `received` is nil before the response began, else the body's bytes so
    /// far and the length the server announced.
    private func describe(_ error: any Error, url: URL, received: (count: Int, expected: Int?)?) -> String {
        if error is PageBodyCollector.TooLarge { return "is larger than \(maxBytes) bytes (--max-page-bytes)" }
        let limit = "within \(Self.seconds(timeout)) (--load-timeout)"
        let place = PageOrigin(url).map { "\($0.host):\($0.port)" } ?? url.absoluteString
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                guard let received else { return "no answer from \(place) \(limit)" }
                return "the server stopped sending the page \(of(received)); it did not finish \(limit)"
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return closed(received, place)
            default: break
            }
        }
        // A connection closed in order (FIN) before the announced length arrived ends the parser's stream early.
        if let parser = error as? HTTPParserError, case .invalidEOFState = parser { return closed(received, place) }
        let text = String(describing: error)
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return "connection refused: nothing listens at \(place); is the server running?"
            case ECONNRESET, EPIPE: return "the connection to \(place) was reset\(received.map { " \(of($0))" } ?? "")"
            case ETIMEDOUT: return "no answer from \(place) \(limit)"
            default: break
            }
        }
        if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("Connection refused") {
            return "connection refused: nothing listens at \(place); is the server running?"
        }
        if text.contains("ECONNRESET") || text.contains("reset by peer") {
            return "the connection to \(place) was reset\(received.map { " \(of($0))" } ?? "")"
        }
        if text.contains("dnsAError") || text.contains("NXDOMAIN") || text.contains("getaddrinfo") {
            return "cannot find the host \(url.host ?? place) (DNS); check the URL"
        }
        return "cannot load it from \(place): \(text)"
    }

    private func closed(_ received: (count: Int, expected: Int?)?, _ place: String) -> String {
        guard let received else { return "the server at \(place) closed the connection without answering" }
        return "the server closed the connection \(of(received)), before the page was complete"
    }

    private func of(_ received: (count: Int, expected: Int?)) -> String {
        "after \(received.count)\(received.expected.map { " of \($0)" } ?? "") bytes"
    }

    package static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
