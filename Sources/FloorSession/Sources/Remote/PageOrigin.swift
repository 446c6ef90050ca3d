import FoundationEssentials

/// A web origin (RFC 6454): scheme, host and port, the unit the origin rules speak in. Written as
/// `https://cms.example.com` or `http://127.0.0.1:8000` (the default port left out), as `--allow-origin`
/// takes it and as messages print it.
public struct PageOrigin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// The origin of an http(s) URL; nil for another scheme or a URL without a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `--allow-origin`'s value, or an error that says what was expected.
    package static func parse(_ argument: String) throws -> PageOrigin {
        guard let origin = PageOrigin(argument: argument) else {
            throw ArgumentFormError(
                "expected an origin, scheme://host[:port] with scheme http or https and no path, e.g. --allow-origin https://cms.example.com or --allow-origin http://127.0.0.1:8000"
            )
        }
        return origin
    }

    /// `--allow-origin` as written: `https://host[:port]`, nothing after it but an optional "/".
    public init?(argument: String) {
        guard let url = URL(string: argument), let origin = PageOrigin(url),
            url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil
        else { return nil }
        self = origin
    }

    public var description: String {
        let standard = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return standard ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}
