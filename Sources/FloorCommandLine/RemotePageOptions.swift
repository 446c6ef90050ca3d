import ArgumentParser
import FloorSession

/// How render, check, view, serve and diff load remote pages (http, https): a page given as a URL, or a
/// `next` that names one. See RemotePageClient and OriginRules.
package struct RemotePageOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("load-timeout"),
        help: ArgumentHelp(
            "Seconds one remote page may take, from the request to its last byte (redirects included); a server that does not answer or stalls mid-body in that time fails the load.",
            valueName: "seconds"))
    package var loadTimeout = RemotePageClient.defaultTimeout

    @Option(
        name: .customLong("allow-origin"), parsing: .singleValue,
        help: ArgumentHelp(
            "Let pages link to remote pages on this origin (repeatable), e.g. --allow-origin https://cms.example.com. A remote page's next may always stay on its own origin; a page file may link to a URL only on an allowed origin.",
            valueName: "scheme://host[:port]"),
        transform: PageOrigin.parse)
    package var allowOrigin: [PageOrigin] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Trust https pages whose certificate the CAs in this PEM file signed, as well as those the system's CAs signed: a staging CMS's private CA.",
            valueName: "file"),
        transform: CAFile.parse)
    package var caFile: CAFile?

    package func validate() throws {
        if !(loadTimeout > 0 && loadTimeout <= 3600) {
            throw ValidationError("--load-timeout takes seconds, more than 0 and at most 3600, e.g. --load-timeout 5")
        }
    }

    /// The client for remote pages, refusing bodies over `maxPageBytes` (--max-page-bytes).
    package func client(maxPageBytes: Int) -> RemotePageClient {
        RemotePageClient(
            timeout: loadTimeout, maxBytes: maxPageBytes, rules: OriginRules(allowed: Set(allowOrigin)), caFile: caFile)
    }
}
