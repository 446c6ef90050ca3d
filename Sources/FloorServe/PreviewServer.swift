import FloorRuntime
import FloorSession
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `floorhost serve` as a library: the Hummingbird application over a preview, with its services (the
/// PageWatcher of an in-process Preview, or a WorkerPreview's supervision) running beside it. Binds `host` (127.0.0.1 unless told otherwise: the preview is for the person at
/// this machine). `onRunning` gets the bound port (useful with port 0).
public enum PreviewServer {
    public static func application(
        _ preview: some PreviewService, services: [any Service], host: String = "127.0.0.1", port: Int = 8080,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "floorhost.serve")
        logger.logLevel = .warning
        return Application(
            router: ServeRoutes.router(preview),
            configuration: .init(address: .hostname(host, port: port), serverName: "floorhost"),
            services: services,
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// What `onRunning` does for `floorhost serve`: says on stdout where the preview is, with the bound port.
    package static func announcement(host: String, root: String) -> @Sendable (Int) async -> Void {
        { port in
            let line =
                "floorhost serve: http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (pages under \(root); Ctrl-C stops)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    /// Runs `app` on a task of its own until it stops (Ctrl-C, SIGTERM), blocking this thread: for the
    /// CLI's synchronous `run()`. Throws what stopped it with a failure.
    package static func runBlocking(_ app: some ApplicationProtocol) throws {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task {
            do { try await app.runService() } catch { failure = error }
            done.signal()
        }
        done.wait()
        if let failure { throw failure }
    }
}

extension PreviewServer {
    /// Where `serve` keeps its plugins.
    package enum Plugins {
        /// In this process, loaded: a plugin crash ends the server, and a changed plugin needs a restart.
        case inProcess(FloorHost, remote: RemotePageClient, retryPolicy: RetryPolicy)
        /// In a worker process started as `command`, which this one replaces when plugins change or fail;
        /// this process loads no plugin (the default).
        case worker(command: [String], pluginFolder: String, callTimeout: Double)
    }

    /// `floorhost serve`: the pages under `root` on `host`:`port` until Ctrl-C or SIGTERM, blocking; the
    /// bound address is said on stdout. The failure is the sentence to print.
    package static func serve(root: PageRoot, rootArgument: String, host: String, port: Int, plugins: Plugins)
        throws(ServeFailure)
    {
        let announce = announcement(host: host, root: rootArgument)
        func run(_ app: some ApplicationProtocol) throws(ServeFailure) {
            do { try runBlocking(app) } catch { throw ServeFailure(message: "floorhost serve: \(error)") }
        }
        switch plugins {
        case .inProcess(let loaded, let remote, let retryPolicy):
            let preview = Preview(
                host: loaded, root: root, rootArgument: rootArgument, remote: remote, retryPolicy: retryPolicy)
            preview.onLog = ServeLog.standardOutput
            let services: [any Service] = [PageWatcher(preview: preview)]
            try run(application(preview, services: services, host: host, port: port, onRunning: announce))
        case .worker(let command, let pluginFolder, let callTimeout):
            let preview: WorkerPreview
            do {
                preview = try WorkerPreview(
                    command: command, pluginFolder: pluginFolder, root: root, rootArgument: rootArgument,
                    callTimeout: callTimeout)
            } catch {
                throw ServeFailure(message: "floorhost serve: cannot start the preview worker: \(error)")
            }
            try run(application(preview, services: [preview], host: host, port: port, onRunning: announce))
        }
    }

    package struct ServeFailure: Error, Sendable { package let message: String }
}
