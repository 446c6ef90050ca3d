import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorRuntime
import FloorServe
import FloorSession
import Foundation

/// The worker half of `serve`: not for people. Loads the plugins and holds the sessions, answering the
/// server on stdin/stdout (WorkerWire); the server replaces it when plugins change or a plugin fails.
struct ServeWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Child.workerCommand,
        abstract: "Hold plugins and preview sessions for `floorhost serve` (started by it).",
        shouldDisplay: false)

    @OptionGroup var plugins: PluginOptions

    @Argument var root: String

    @Option var maxPageBytes = PageRoot.defaultMaxPageBytes
    @Option var maxPages = PageRoot.defaultMaxPages

    @OptionGroup var remote: RemotePageOptions

    @Option var retry = 0

    /// --crash-record-fd and --skip-floor, from the server (WorkerProcess, WorkerPreview).
    @OptionGroup var containment: ContainmentOptions

    /// `N=FILE`: the number the server's earlier workers gave a page file.
    @Option var pageOrdinal: [String] = []

    func run() throws {
        let pageRoot = try servedRoot(root, maxPageBytes: maxPageBytes, maxPages: maxPages)
        let host = try plugins.load()
        try containment.attach(host)
        let preview = Preview(
            host: host, root: pageRoot, rootArgument: root, remote: remote.client(maxPageBytes: maxPageBytes),
            retryPolicy: RetryPolicy(attempts: retry))
        // Frames go to the real stdout: from here on descriptor 1 is stderr, for what plugin code prints.
        let worker = PreviewWorker(
            preview, output: FileHandle(fileDescriptor: HostOutput.standardOutput.descriptor, closeOnDealloc: false))
        let numbers = PageNumbers(arguments: pageOrdinal)
        host.numberPages { file in numbers.ordinal(file) { worker.announce(ordinal: $0, file: file) } }
        Task { await PageWatcher(preview: preview).runUntilCancelled() }
        worker.run()
    }
}
