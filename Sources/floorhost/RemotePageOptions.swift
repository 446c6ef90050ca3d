import ArgumentParser
import FloorHost

/// How render, check and view load remote pages (http, https): a first page given as a URL, or a `next`
/// that names one. See RemotePageClient and OriginRules.
struct RemotePageOptions: ParsableArguments {
    @Option(name: .customLong("load-timeout"),
            help: ArgumentHelp("Seconds one remote page may take, from the request to its last byte (redirects included); a server that does not answer or stalls mid-body in that time fails the load.",
                               valueName: "seconds"))
    var loadTimeout = RemotePageClient.defaultTimeout

    @Option(name: .customLong("allow-origin"), parsing: .singleValue,
            help: ArgumentHelp("Let pages link to remote pages on this origin (repeatable), e.g. --allow-origin https://cms.example.com. A remote page's next may always stay on its own origin; a page file may link to a URL only on an allowed origin.",
                               valueName: "scheme://host[:port]"),
            transform: Self.origin)
    var allowOrigin: [PageOrigin] = []

    func validate() throws {
        if !(loadTimeout > 0 && loadTimeout <= 3600) { throw ValidationError("--load-timeout takes seconds, more than 0 and at most 3600, e.g. --load-timeout 5") }
    }

    /// These options as arguments, for a child that loads pages the same way (check's shards).
    var arguments: [String] {
        ["--load-timeout", "\(loadTimeout)"] + allowOrigin.flatMap { ["--allow-origin", $0.description] }
    }

    /// The client for remote pages, refusing bodies over `maxPageBytes` (--max-page-bytes).
    func client(maxPageBytes: Int) -> RemotePageClient {
        RemotePageClient(timeout: loadTimeout, maxBytes: maxPageBytes, rules: OriginRules(allowed: Set(allowOrigin)))
    }

    static func origin(_ argument: String) throws -> PageOrigin {
        guard let origin = PageOrigin(argument: argument) else {
            throw ValidationError("expected an origin, scheme://host[:port] with scheme http or https and no path, e.g. --allow-origin https://cms.example.com or --allow-origin http://127.0.0.1:8000")
        }
        return origin
    }
}
