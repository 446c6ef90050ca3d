import FloorRuntime
import FloorSession
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// `floorhost serve` as a library: the Hummingbird application over a preview, with its services (the
/// PageWatcher of an in-process Preview, or a WorkerPreview's supervision) running beside it. Binds `host` (127.0.0.1 unless told otherwise: the preview is for the person at
/// this machine). `onRunning` gets the bound port (useful with port 0).
public enum PreviewServer {
    public static func application(
        _ preview: some PreviewService, services: [any Service], host: String = "127.0.0.1", port: Int = 8080,
        allowedHosts: [String] = [], connections: OpenConnections = OpenConnections(),
        accessLog: (@Sendable (String) -> Void)? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "floorhost.serve")
        logger.logLevel = .warning
        return Application(
            router: ServeRoutes.router(
                preview, hosts: ServedHosts(bound: host, allowed: allowedHosts), accessLog: accessLog,
                metrics: ServeMetrics(connections: connections)),
            server: .guardedHTTP1(connections),
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

    /// What `serve` prints on stderr before it binds `host` when that is not a loopback address: who can then
    /// reach the preview, and what to do instead on a shared machine. Nil for loopback.
    package static func exposureWarning(host: String, port: Int, allowedHosts: [String]) -> String? {
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"]
        guard !loopback.contains(host.lowercased()), !host.hasPrefix("127.") else { return nil }
        let everyone =
            host == "0.0.0.0" || host == "::" || host == "[::]"
            ? "anyone who can reach any address of this machine" : "anyone who can reach \(host)"
        let names = allowedHosts.isEmpty ? "" : " (under the names \(allowedHosts.joined(separator: ", ")))"
        return
            "warning: listening on \(host) port \(port): \(everyone)\(names) can read every page under the "
            + "root and drive the preview; it has no authentication. On a shared machine keep the default "
            + "127.0.0.1 and put a reverse proxy with authentication in front (README, \"A shared preview box\")."
    }

    /// Runs `app` on a task of its own until it stops (Ctrl-C, SIGTERM), blocking this thread: for the
    /// CLI's synchronous `run()`. Returns the signal that stopped it (nil when it stopped by itself); throws
    /// what stopped it with a failure.
    package static func runBlocking(_ app: some ApplicationProtocol) throws -> Int32? {
        let stop = StopSignal()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task {
            do { try await app.runService() } catch { failure = error }
            done.signal()
        }
        done.wait()
        if let failure { throw failure }
        return stop.signal(within: 1)
    }

    /// What a failure to run says: for an address in use, which port and what to do.
    package static func failureMessage(_ error: any Error, host: String, port: Int) -> String {
        if let io = error as? IOError, io.errnoCode == EADDRINUSE {
            return
                "floorhost serve: port \(port) on \(host) is already in use (another floorhost serve, or another "
                + "program); stop that one, or choose another port with --port (--port 0 picks a free one)"
        }
        if let io = error as? IOError, io.errnoCode == EACCES {
            return
                "floorhost serve: not allowed to listen on port \(port) (ports below 1024 need privileges); "
                + "choose another with --port, e.g. --port 8080"
        }
        return "floorhost serve: \(error)"
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
    /// bound address is said on stdout. Returns the signal that stopped it (the CLI exits 128 + N). The
    /// failure is the sentence to print.
    package static func serve(
        root: PageRoot, rootArgument: String, host: String, port: Int, allowedHosts: [String] = [],
        accessLog path: String? = nil, plugins: Plugins
    ) throws(ServeFailure) -> Int32? {
        var accessLog: (@Sendable (String) -> Void)?
        if let path {
            do {
                accessLog = try AccessLog<ServeContext>.destination(path)
            } catch {
                throw ServeFailure(message: "floorhost serve: \(error.message)")
            }
        }
        let announce = announcement(host: host, root: rootArgument)
        DescriptorLimit.raiseToHard()
        if let warning = exposureWarning(host: host, port: port, allowedHosts: allowedHosts) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        func run(_ app: some ApplicationProtocol) throws(ServeFailure) -> Int32? {
            do {
                return try runBlocking(app)
            } catch {
                throw ServeFailure(message: failureMessage(error, host: host, port: port))
            }
        }
        switch plugins {
        case .inProcess(let loaded, let remote, let retryPolicy):
            let preview = Preview(
                host: loaded, root: root, rootArgument: rootArgument, remote: remote, retryPolicy: retryPolicy)
            preview.onLog = ServeLog.standardOutput
            let services: [any Service] = [PageWatcher(preview: preview)]
            return try run(
                application(
                    preview, services: services, host: host, port: port, allowedHosts: allowedHosts,
                    accessLog: accessLog, onRunning: announce))
        case .worker(let command, let pluginFolder, let callTimeout):
            let preview: WorkerPreview
            do {
                preview = try WorkerPreview(
                    command: command, pluginFolder: pluginFolder, root: root, rootArgument: rootArgument,
                    callTimeout: callTimeout)
            } catch {
                throw ServeFailure(message: "floorhost serve: cannot start the preview worker: \(error)")
            }
            return try run(
                application(
                    preview, services: [preview], host: host, port: port, allowedHosts: allowedHosts,
                    accessLog: accessLog, onRunning: announce))
        }
    }

    package struct ServeFailure: Error, Sendable { package let message: String }
}
