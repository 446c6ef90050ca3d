import ArgumentParser
import FloorSession

/// How render, check, view, serve and diff load remote pages (http, https): a page given as a URL, or a
/// `next` that names one. See RemotePageClient and OriginRules.
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

    @Option(name: .customLong("ca-file"),
            help: ArgumentHelp("Trust https pages whose certificate the CAs in this PEM file signed, as well as those the system's CAs signed: a staging CMS's private CA.",
                               valueName: "file"),
            transform: Self.caFile)
    var caFile: CAFile?

    func validate() throws {
        if !(loadTimeout > 0 && loadTimeout <= 3600) { throw ValidationError("--load-timeout takes seconds, more than 0 and at most 3600, e.g. --load-timeout 5") }
    }

    /// The client for remote pages, refusing bodies over `maxPageBytes` (--max-page-bytes).
    func client(maxPageBytes: Int) -> RemotePageClient {
        RemotePageClient(timeout: loadTimeout, maxBytes: maxPageBytes, rules: OriginRules(allowed: Set(allowOrigin)), caFile: caFile)
    }

    static func origin(_ argument: String) throws -> PageOrigin {
        guard let origin = PageOrigin(argument: argument) else {
            throw ValidationError("expected an origin, scheme://host[:port] with scheme http or https and no path, e.g. --allow-origin https://cms.example.com or --allow-origin http://127.0.0.1:8000")
        }
        return origin
    }

    /// The file read and its certificates parsed now: a file that cannot be used is a usage error (64), the
    /// parser naming the file, before any page is requested.
    static func caFile(_ argument: String) throws -> CAFile {
        do {
            return try CAFile(path: argument)
        } catch {
            throw ValidationError("\(error.reason), e.g. --ca-file staging-ca.pem")
        }
    }
}
