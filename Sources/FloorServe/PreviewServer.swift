import FloorHost
import Hummingbird
import Logging

/// `floorhost serve` as a library: the Hummingbird application over a Preview, with the PageWatcher
/// running beside it. Binds `host` (127.0.0.1 unless told otherwise: the preview is for the person at
/// this machine). `onRunning` gets the bound port (useful with port 0).
public enum PreviewServer {
    public static func application(_ preview: Preview, host: String = "127.0.0.1", port: Int = 8080,
                                   onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "floorhost.serve")
        logger.logLevel = .warning
        return Application(router: ServeRoutes.router(preview),
                           configuration: .init(address: .hostname(host, port: port), serverName: "floorhost"),
                           services: [PageWatcher(preview: preview)],
                           onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
                           logger: logger)
    }
}
