import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorRuntime
import FloorServe
import FloorSession
import Foundation

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServeHelp.abstract, discussion: ServeHelp.discussion)

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The folder whose pages are served (the page root).")
    var root: String

    @Option(help: .init(ServeHelp.host)) var host = "127.0.0.1"

    @Option(help: .init(ServeHelp.allowHost, valueName: "name")) var allowHost: [String] = []

    @Option(help: .init(ServeHelp.accessLog, valueName: "file")) var accessLog: String?

    @Option(help: "The port to listen on (0: any free port, printed on start).")
    var port = 8080

    @Option(help: "Refuse a page file larger than this many bytes.")
    var maxPageBytes = PageRoot.defaultMaxPageBytes

    @Option(help: .init(PageRoot.maxPagesHelp)) var maxPages = PageRoot.defaultMaxPages

    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var remote: RemotePageOptions

    @Option(help: .init(ServeHelp.retry)) var retry = 0

    func validate() throws {
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if maxPageBytes < 1 || maxPages < 1 {
            throw ValidationError("--max-page-bytes and --max-pages must be 1 or more")
        }
    }

    func run() throws {
        let pageRoot = try servedRoot(root, maxPageBytes: maxPageBytes, maxPages: maxPages)
        let kept: PreviewServer.Plugins
        if plugins.pluginIsolation {
            kept = .worker(
                command: childCommand(.worker), pluginFolder: plugins.plugins,
                callTimeout: containment.pluginCallTimeout)
        } else {
            let loaded = try plugins.load()
            for d in loaded.loadDiagnostics { printError(d.line) }
            kept = .inProcess(
                loaded, remote: remote.client(maxPageBytes: maxPageBytes), retryPolicy: RetryPolicy(attempts: retry))
        }
        let stoppedBy: Int32?
        do {
            stoppedBy = try PreviewServer.serve(
                root: pageRoot, rootArgument: root, host: host, port: port, allowedHosts: allowHost,
                accessLog: accessLog,
                plugins: kept)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        if let stoppedBy { throw ExitCode(128 + stoppedBy) }
    }
}

extension Serve: ChildLauncher {
    var children: [Child] { [.worker] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, remote] as [any ChildOptions] { group.write(to: &a) }
        a.options(["--host": host, "--port": port, "--max-page-bytes": maxPageBytes, "--retry": retry])
        a.options(["--max-pages": maxPages])
        a.repeated("--allow-host", allowHost)
        a.options(["--access-log": accessLog])
        a.argument("root", root)
    }
}
