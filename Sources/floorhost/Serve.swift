import ArgumentParser
import FloorRuntime
import FloorServe
import FloorSession
import Foundation

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Preview the pages under a folder in a browser, live.",
        discussion: """
            Serves http://HOST:PORT/: an index of the pages under ROOT, each page in a phone frame \
            (/page/<path>, any device 280 to 1,024 points wide) that loads next pages as you scroll, and \
            /layout/<path>, what `floorhost <path> --format json` prints. Saving a page file updates \
            every open tab. Plugins and sessions live in a worker process: adding or rebuilding a plugin \
            library takes effect without a restart, and a plugin that crashes or hangs on a floor leaves \
            that floor out (--no-plugin-isolation: all in this process; a plugin change then needs a \
            restart). Pages are read only from ROOT (after symlinks, regular files, --max-page-bytes).

            Example:
              floorhost serve --plugins Plugins/ Examples/
            """)

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The folder whose pages are served (the page root).")
    var root: String

    @Option(
        help:
            "The address to listen on. The preview is for this machine: anything but loopback shows every page under ROOT to the network."
    )
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed on start).")
    var port = 8080

    @Option(help: "Refuse a page file larger than this many bytes.")
    var maxPageBytes = PageRoot.defaultMaxPageBytes

    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var remote: RemotePageOptions

    @Option(
        help:
            "Retry a failed next-page load up to N times with backoff (as render's --retry); the page's retry button still works after the last."
    )
    var retry = 0

    func validate() throws {
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if maxPageBytes < 1 { throw ValidationError("--max-page-bytes must be 1 or more") }
    }

    func run() throws {
        let pageRoot = try servedRoot(root, maxPageBytes: maxPageBytes)
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
        do {
            try PreviewServer.serve(root: pageRoot, rootArgument: root, host: host, port: port, plugins: kept)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
