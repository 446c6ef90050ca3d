import FloorSession
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP server on loopback for the remote-page tests: Tests/Fixtures/PageServer/page_server.py
/// serving `folder`, scripted per path (status codes, Retry-After, redirects, held, silent, stalled and
/// reset answers). Started when made, stopped (SIGTERM) when the value goes away. With `tls` (a certificate
/// and its key, see TestCA) it serves https; `release` speaks plain http, so held answers are for http only.
final class PageServer {
    let folder: TemporaryFolder
    let port: Int
    /// "https" with a certificate, else "http".
    let scheme: String
    private let process: Process
    /// The server's stdin: closing it (here, or by this process ending) stops the server.
    private let lifeline = Pipe()

    init(serving folder: TemporaryFolder, tls: (certificate: String, key: String)? = nil) throws {
        self.folder = folder
        scheme = tls == nil ? "http" : "https"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Repo.path("Tests/Fixtures/PageServer/page_server.py"), folder.path, "--exit-with-stdin"]
            + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = lifeline
        try process.run()
        // The first line is the port; EOF first means the server did not start.
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw ServerDidNotStart()
        }
        self.port = port
    }

    struct ServerDidNotStart: Error {}

    deinit {
        try? lifeline.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    var origin: String { "\(scheme)://127.0.0.1:\(port)" }

    func url(_ path: String) -> String { "\(origin)/\(path)" }

    /// Scripts the answers per path ("/page-1.json": steps; see page_server.py).
    func script(_ steps: [String: [[String: Any]]]) throws {
        let data = try JSONSerialization.data(withJSONObject: steps)
        try folder.write("_script.json", String(decoding: data, as: UTF8.self))
    }

    /// The paths requested so far, in order.
    var requests: [String] {
        ((try? String(contentsOfFile: folder.file("_requests.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// How many connections requests arrived on so far.
    var connections: Int {
        ((try? String(contentsOfFile: folder.file("_connections.log"), encoding: .utf8)) ?? "").split(separator: "\n")
            .count
    }

    /// Lets the answers held with {"hold": name} go (a request to /_release/name over a plain socket).
    func release(_ name: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Issue.record("cannot reach the page server to release '\(name)'")
            return
        }
        let request = Array("GET /_release/\(name) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 512)
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
    }
}

/// A LoadClock for tests: time moves only when a wait asks it to, and every wait is recorded, so backoff is
/// asserted exactly and nothing sleeps.
final class RecordingClock: LoadClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time = 1000.0
    private var recorded: [Double] = []

    var now: Double { lock.withLock { time } }

    /// The waits asked for, in seconds, in order.
    var waits: [Double] { lock.withLock { recorded } }

    func wait(until deadline: Double) {
        lock.withLock {
            recorded.append(deadline - time)
            time = max(time, deadline)
        }
    }

    /// Moves time on by `seconds` (an interactive driver's wait, done by the test).
    func advance(_ seconds: Double) { lock.withLock { time += seconds } }
}
