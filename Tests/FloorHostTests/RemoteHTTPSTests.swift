import FloorSession
import Foundation
import Testing

/// Pages over https (issue 13): real TLS servers on loopback (page_server.py --tls) with certificates a
/// throwaway CA issues at test time (TestCA, the `openssl` command), the real client and the real CLI. A
/// staging CMS's private CA is trusted with --ca-file; every way TLS fails is a load failure that says what
/// to do, never NIOSSL's error value, a crash or a hang; and a --ca-file that cannot be used is a usage error.
@Suite(.serialized) struct RemoteHTTPSTests {
    /// A page of the feed floor "feed" with products `ids`, linking to `next`.
    static func page(_ ids: [String], next: String?) -> String {
        let items = ids.map {
            #"{"id":"\#($0)","title":"Product \#($0)","price":"¥1","img":"p/\#($0).jpg","jump":{"url":"app://product/\#($0)"}}"#
        }
        return
            #"{"floors":[{"type":"ProductFeed","id":"feed","items":[\#(items.joined(separator: ","))]}],"next":\#(next.map { "\"\($0)\"" } ?? "null")}"#
    }

    static func ids(_ range: Range<Int>) -> [String] { range.map { "p\($0)" } }

    /// A CA (in its own folder: the servers do not serve its key) and an https server whose certificate it
    /// issued for 127.0.0.1 and localhost, serving page-0 (p0-p9) that links to page-1 (p10-p19).
    static func trustedServer() throws -> (ca: TestCA, server: PageServer) {
        let ca = try TestCA(in: try TemporaryFolder("floorkit-ca"))
        let folder = try TemporaryFolder()
        try folder.write("page-0.json", page(ids(0..<10), next: "page-1.json"))
        try folder.write("page-1.json", page(ids(10..<20), next: nil))
        let server = try PageServer(
            serving: folder, tls: try ca.issue("server", for: ["IP:127.0.0.1", "DNS:localhost"]))
        return (ca, server)
    }

    // MARK: A private CA

    @Test func anHTTPSPageAndItsHTTPSNextPageRenderWithTheCAFile() throws {
        let (ca, server) = try Self.trustedServer()
        #expect(server.url("page-0.json").hasPrefix("https://127.0.0.1:"))
        let plugins = try server.folder.installShippedPlugins()
        let result = try floorhost([
            "--plugins", plugins, server.url("page-0.json"), "--ca-file", ca.certificate,
            "--format", "json", "--scroll-to", "end",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let loads = try #require(output["events"] as? [[String: Any]]).filter { $0["kind"] as? String == "loadMore" }
        #expect(loads.map { $0["phase"] as? String } == ["requested", "completed"])
        #expect(loads.map { $0["page"] as? String } == [server.url("page-1.json"), server.url("page-1.json")])
        // The first page's 10 cards, the next page's 10, then the footer saying the end.
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.filter { $0["type"] as? String == "ProductCard" }.count == 20)
        #expect(rows.last?["floor"] as? String == "floorhost.footer")
        #expect((output["diagnostics"] as? [Any])?.isEmpty == true, "\(output["diagnostics"] ?? "")")
        #expect(server.requests == ["/page-0.json", "/page-1.json"])
    }

    @Test func withoutTheCAFileTheFirstPageFailsSayingItsCertificateIsNotTrusted() throws {
        let (_, server) = try Self.trustedServer()
        let plugins = try server.folder.installShippedPlugins()
        let result = try floorhost(["--plugins", plugins, server.url("page-0.json")])
        #expect(result.status == 2, "an unusable first page, not a crash (\(result.status))")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: \(server.url("page-0.json")): the certificate of 127.0.0.1:\(server.port) is not trusted (self-signed, signed by an unknown CA, or expired); if a private CA signed it, as a staging CMS's often is, pass --ca-file with that CA's certificate (PEM)\n",
            "\(result.stderr)")
        #expect(server.requests == [], "nothing is asked of a server that is not trusted")
    }

    @Test func anUntrustedNextPageFailsInTheLastLineAndTheFirstPageStillRenders() throws {
        let (ca, server) = try Self.trustedServer()
        // The next page is on another origin, whose certificate a CA nobody trusts issued.
        let stranger = try TestCA(in: ca.folder, name: "stranger")
        let other = try PageServer(
            serving: try TemporaryFolder(), tls: try stranger.issue("other", for: ["IP:127.0.0.1"]))
        try other.folder.write("page-1.json", Self.page(Self.ids(10..<20), next: nil))
        // Three cards, shorter than the screen: the next page loads without a scroll, and the text output is
        // the whole page, then the status line.
        try server.folder.write("page-0.json", Self.page(Self.ids(0..<3), next: other.url("page-1.json")))
        let plugins = try server.folder.installShippedPlugins()
        let result = try floorhost([
            "--plugins", plugins, server.url("page-0.json"), "--ca-file", ca.certificate,
            "--allow-origin", other.origin, "--color", "never",
        ])
        #expect(result.status == 0, "the first page rendered: \(result.stderr)")
        let reason =
            "\(other.url("page-1.json")): the certificate of 127.0.0.1:\(other.port) is not trusted by the system's CAs nor by --ca-file \(ca.certificate) (self-signed, signed by another CA, or expired); pass --ca-file with the CA that signed it"
        let lines = result.stdout.split(separator: "\n")
        // Trying again cannot help an untrusted certificate: no "--retry" hint (a missing file's has one,
        // TextPreviewTests).
        #expect(
            lines.last.map(String.init) == "!! the next page 'page-1.json' failed to load: \(reason)",
            "\(result.stdout)")
        for id in Self.ids(0..<3) { #expect(result.stdout.contains("Product \(id)"), "first page row \(id)") }
        #expect(!result.stdout.contains("Product p10"))
        #expect(
            result.stderr.contains(
                "error: \(server.url("page-0.json")): next: next page '\(other.url("page-1.json"))' failed to load: \(reason) (the chain stops here)"
            ), "\(result.stderr)")
        #expect(other.requests == [], "nothing is asked of a server that is not trusted")
    }

    // MARK: Every way TLS fails

    /// One way an https next page's TLS fails, and what the reason says (PORT: that server's port).
    struct TLSFailureMode: CustomTestStringConvertible, Sendable {
        enum Server: Sendable {
            /// A certificate a CA the client does not trust issued.
            case strangerCA
            /// A certificate the trusted CA issued, for another host name than the URL's.
            case otherHost
            /// A plain http server, asked for an https URL.
            case plainHTTP
        }
        let name: String
        let server: Server
        let says: String
        let retryable: Bool
        var testDescription: String { name }
    }

    static let tlsFailureModes: [TLSFailureMode] = [
        TLSFailureMode(
            name: "an unknown CA", server: .strangerCA,
            says:
                "the certificate of 127.0.0.1:PORT is not trusted by the system's CAs nor by --ca-file CAFILE (self-signed, signed by another CA, or expired); pass --ca-file with the CA that signed it",
            retryable: false),
        TLSFailureMode(
            name: "another host name", server: .otherHost,
            says:
                "the certificate of 127.0.0.1:PORT is for other host names, not 127.0.0.1; use a host name it was issued for in the URL, or give the server a certificate for 127.0.0.1",
            retryable: false),
        TLSFailureMode(
            name: "a plain http server", server: .plainHTTP,
            says:
                "the server at 127.0.0.1:PORT does not answer in TLS: is it a plain http server? Then the page's URL starts with http://, not https://",
            retryable: false),
    ]

    @Test(arguments: tlsFailureModes) func aTLSFailureOfANextPageSaysWhatToDoAndKeepsEveryRow(_ mode: TLSFailureMode)
        throws
    {
        let (ca, server) = try Self.trustedServer()
        let other: PageServer
        switch mode.server {
        case .strangerCA:
            let stranger = try TestCA(in: ca.folder, name: "stranger")
            other = try PageServer(
                serving: try TemporaryFolder(),
                tls: try stranger.issue("other", for: ["IP:127.0.0.1", "DNS:localhost"]))
        case .otherHost:
            other = try PageServer(
                serving: try TemporaryFolder(), tls: try ca.issue("other", for: ["DNS:cms.example.com"]))
        case .plainHTTP:
            other = try PageServer(serving: try TemporaryFolder())
        }
        let next = "https://127.0.0.1:\(other.port)/page-1.json"
        try other.folder.write("page-1.json", Self.page(Self.ids(10..<20), next: nil))
        try server.folder.write("page-0.json", Self.page(Self.ids(0..<10), next: next))
        let client = RemotePageClient(
            rules: OriginRules(allowed: [PageOrigin(argument: "https://127.0.0.1:\(other.port)")!]),
            caFile: try CAFile(path: ca.certificate))
        let reason = mode.says.replacingOccurrences(of: "PORT", with: "\(other.port)").replacingOccurrences(
            of: "CAFILE", with: ca.certificate)

        // The client: the reason, and whether trying again may help.
        let started = Date()
        guard case .failure(let error) = client.fetchWaiting(URL(string: next)!) else {
            Issue.record("\(mode.name): the load should fail")
            return
        }
        #expect(Date().timeIntervalSince(started) < 5, "a failed handshake is told at once, not at the time limit")
        #expect(error.description == "\(next): \(reason)")
        #expect(error.retryable == mode.retryable)

        // A session: a failed next-page load with that reason, every row of the first page kept.
        let host = try FloorHost(pluginFolder: try server.folder.installShippedPlugins())
        let session = PageSession(
            adapter: try host.layout(page: server.url("page-0.json"), remote: client, width: 375), viewportHeight: 812,
            source: PageSource(registry: host.registry, remote: client))
        session.scrollToEnd()
        #expect(session.failures == ["\(next): \(reason)"])
        #expect(session.loadMore.state == .failed(location: next, reason: "\(next): \(reason)"))
        #expect(session.feedProductIDs == Self.ids(0..<10))
        #expect(other.requests == [], "no page was asked for over a connection that failed its handshake")
    }

    // MARK: A --ca-file that cannot be used

    @Test func aMissingCAFileIsAUsageErrorNamingItOnEveryCommandThatReadsRemotePages() throws {
        let (_, server) = try Self.trustedServer()
        let plugins = try server.folder.installShippedPlugins()
        let page = server.url("page-0.json")
        let commands: [[String]] = [
            ["render", "--plugins", plugins, page], ["check", "--plugins", plugins, page],
            ["view", "--plugins", plugins, page], ["serve", "--plugins", plugins, server.folder.path, "--port", "0"],
            ["diff", "--plugins", plugins, page, page],
        ]
        for command in commands {
            let result = try floorhost(command + ["--ca-file", "/nonexistent"])
            #expect(result.status == 64, "\(command[0]): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "The value '/nonexistent' is invalid for '--ca-file <file>': no such file; expected a PEM file of the CA certificates to trust (-----BEGIN CERTIFICATE----- blocks), e.g. --ca-file staging-ca.pem"
                ),
                "\(command[0]): \(result.stderr)")
        }
        #expect(server.requests == [], "nothing was requested before the options were checked")
    }

    @Test func aCAFileThatIsNotPEMCertificatesIsRefusedSayingWhatItIs() throws {
        let (ca, server) = try Self.trustedServer()
        let plugins = try server.folder.installShippedPlugins()
        let notPEM = server.folder.file("page-1.json")
        let key = try ca.issue("server2", for: ["IP:127.0.0.1"]).key
        let empty = try server.folder.write("empty.pem", "\n")
        let broken = try server.folder.write(
            "broken.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        let cases: [(file: String, says: String)] = [
            (
                notPEM,
                "the file is not PEM (if it is a DER certificate: openssl x509 -inform der -in \(notPEM) -out ca.pem)"
            ),
            (key, "the file is PEM but holds no certificate (a key or a request?)"),
            (empty, "the file is empty"),
            (broken, "a -----BEGIN CERTIFICATE----- block in the file is not a certificate that can be read"),
            (server.folder.path, "is a folder, not a file"),
        ]
        for (file, says) in cases {
            let result = try floorhost(["--plugins", plugins, server.url("page-0.json"), "--ca-file", file])
            #expect(result.status == 64, "\(file): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "The value '\(file)' is invalid for '--ca-file <file>': \(says); expected a PEM file of the CA certificates to trust"
                ),
                "\(result.stderr)")
        }
        #expect(server.requests == [])
    }

    // MARK: Serve

    @Test func serveGivesItsWorkerTheCAFile() throws {
        let (ca, server) = try Self.trustedServer()
        // A page file under the served root whose next page is the https server's (an allowed origin).
        let root = try TemporaryFolder()
        try root.write("local.json", Self.page(Self.ids(0..<2), next: server.url("page-1.json")))
        let plugins = try root.installShippedPlugins()
        func layout(_ options: [String]) throws -> [[String: Any]] {
            let serve = Process()
            serve.executableURL = URL(fileURLWithPath: Repo.floorhostBinary)
            serve.arguments =
                ["serve", "--plugins", plugins, "--port", "0", "--allow-origin", server.origin] + options + [root.path]
            var environment = ProcessInfo.processInfo.environment
            environment["FLOORKIT_PLUGIN_CACHE"] = root.file("scan.json")
            serve.environment = environment
            let out = Pipe()
            serve.standardOutput = out
            try serve.run()
            defer {
                serve.terminate()
                serve.waitUntilExit()
            }
            // The first line says where it listens (EOF first: it did not start).
            var line = Data()
            while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
                line += byte
            }
            let address = try #require(
                String(decoding: line, as: UTF8.self).firstMatch(of: #/http://127\.0\.0\.1:\d+//#)?.output)
            let get = try run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=30).read().decode())",
                    "\(address)layout/local.json",
                ])
            #expect(get.status == 0, "\(get.stderr)")
            return try #require(try jsonObject(get.stdout)["events"] as? [[String: Any]]).filter {
                $0["kind"] as? String == "loadMore"
            }
        }
        let trusted = try layout(["--ca-file", ca.certificate])
        #expect(trusted.map { $0["phase"] as? String } == ["requested", "completed"], "\(trusted)")
        let untrusted = try layout([])
        #expect(untrusted.map { $0["phase"] as? String } == ["requested", "failed"])
        #expect(
            (untrusted.last?["reason"] as? String)?.hasPrefix(
                "\(server.url("page-1.json")): the certificate of 127.0.0.1:\(server.port) is not trusted") == true,
            "\(untrusted)")
        #expect(server.requests == ["/page-1.json"], "only the trusting worker asked for the page")
    }

    // MARK: Diff

    @Test func diffComparesTwoHTTPSPagesWithTheCAFile() throws {
        let (ca, server) = try Self.trustedServer()
        // The CMS renames p1 on the staging copy of the first page.
        try server.folder.write(
            "page-0-edited.json",
            Self.page(Self.ids(0..<10), next: "page-1.json").replacingOccurrences(
                of: "Product p1\"", with: "Product p1 (new)\""))
        let plugins = try server.folder.installShippedPlugins()
        let (old, new) = (server.url("page-0.json"), server.url("page-0-edited.json"))
        let trusted = try floorhost(["diff", "--plugins", plugins, old, new, "--ca-file", ca.certificate])
        #expect(trusted.status == 1, "the pages differ: \(trusted.stderr)")
        #expect(
            trusted.stdout.hasPrefix(
                "\(old) → \(new) (375 points wide): 1 change in the content; on screen 1 floor changed"),
            "\(trusted.stdout)")
        #expect(trusted.stdout.contains("row 1 ProductCard (item 'p1')"), "\(trusted.stdout)")
        #expect(trusted.stdout.contains(#"item 'p1' title: "Product p1" → "Product p1 (new)""#), "\(trusted.stdout)")
        #expect(server.requests == ["/page-0.json", "/page-0-edited.json"])
        let untrusted = try floorhost(["diff", "--plugins", plugins, Self.localCopy(of: server, "page-0.json"), new])
        #expect(untrusted.status == 2)
        #expect(
            untrusted.stderr.hasPrefix(
                "error: \(new): the certificate of 127.0.0.1:\(server.port) is not trusted (self-signed, signed by an unknown CA, or expired)"
            ),
            "\(untrusted.stderr)")
    }

    /// The served page `name`, as a file beside the server's folder.
    static func localCopy(of server: PageServer, _ name: String) throws -> String {
        try server.folder.write("local-\(name)", try String(contentsOfFile: server.folder.file(name), encoding: .utf8))
    }

    // MARK: Check

    @Test func checkTrustsTheCAFileInEachOfItsProcesses() throws {
        let (ca, server) = try Self.trustedServer()
        try server.folder.write("other-0.json", Self.page(Self.ids(20..<30), next: nil))
        let plugins = try server.folder.installShippedPlugins()
        // Two pages, two processes: each is given the --ca-file.
        let pages = [server.url("page-0.json"), server.url("other-0.json")]
        let trusted = try floorhost(
            ["check", "--plugins", plugins, "--jobs", "2", "--ca-file", ca.certificate] + pages)
        #expect(trusted.status == 0, "\(trusted.stdout)\(trusted.stderr)")
        #expect(Set(server.requests) == ["/page-0.json", "/page-1.json", "/other-0.json"])
        let untrusted = try floorhost(["check", "--plugins", plugins, "--jobs", "2"] + pages)
        #expect(untrusted.status == 1)
        #expect(
            untrusted.stdout.contains(
                "\(server.url("other-0.json")): the certificate of 127.0.0.1:\(server.port) is not trusted (self-signed, signed by an unknown CA, or expired)"
            ),
            "\(untrusted.stdout)")
    }
}
