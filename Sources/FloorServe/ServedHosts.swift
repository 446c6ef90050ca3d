#if canImport(Glibc)
import Glibc
#endif

/// The names a preview answers to, in a request's `Host` and in the `Origin` of a request that changes
/// something: the loopback names (`localhost` and `*.localhost`, `127.0.0.1`, `::1`), the address `serve` is
/// bound to, and the names given with `--allow-host` (a reverse proxy's public name). Bound to every address
/// (`0.0.0.0`, `::`), any IP address is answered too: a page can reach a server by its IP address only from
/// that address itself, so an IP literal is never a rebound name.
///
/// Why: a web page the user visits can make the browser send requests to this preview, under a name of the
/// page's choosing that it rebinds to 127.0.0.1 (DNS rebinding); such a request carries that name as its
/// `Host`, which is how it is told apart.
public struct ServedHosts: Sendable, Equatable {
    /// Lowercased host names and addresses (an IPv6 address without brackets), without ports.
    package let names: Set<String>
    /// The `--allow-host` names, lowercased: also the origins a session may be driven from (a proxy's).
    package let allowed: Set<String>
    /// Bound to every address: IP literals are answered.
    package let anyAddress: Bool

    public init(bound: String, allowed: [String] = []) {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1"]
        names.insert(Self.bare(bound.lowercased()))
        self.allowed = Set(allowed.map { Self.bare($0.lowercased()) })
        self.names = names.union(self.allowed)
        anyAddress = bound == "0.0.0.0" || bound == "::" || bound == "[::]"
    }

    /// Loopback only: what tests and `serve` on 127.0.0.1 answer to.
    public static let loopback = ServedHosts(bound: "127.0.0.1")

    /// Whether `name` (no port, IPv6 without brackets) is one of these.
    package func admits(name: String) -> Bool {
        let name = name.lowercased()
        if names.contains(name) || name.hasSuffix(".localhost") { return true }
        return anyAddress && Self.isAddress(name)
    }

    /// Whether `authority` (`name`, `name:port`, `[v6]:port`, as a `Host` header carries it) names this preview.
    package func admits(authority: String) -> Bool {
        guard let (name, _) = Self.split(authority) else { return false }
        return admits(name: name)
    }

    /// `authority` as name and port (nil when it has none); nil when it is not an authority at all.
    package static func split(_ authority: String) -> (name: String, port: Int?)? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let name = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty, parts.count <= 2 else { return nil }
        if parts.count == 2 {
            guard let port = Int(parts[1]) else { return nil }
            return (String(first), port)
        }
        return (String(first), nil)
    }

    private static func bare(_ name: String) -> String {
        name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
    }

    private static func isAddress(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }
}
