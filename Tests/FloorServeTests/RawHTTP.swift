import Foundation
import Hummingbird
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a server on loopback, for requests no HTTP client would send (no Host, a
/// foreign Host or Origin, HTTP/1.0, half a request). Reads wait at most `seconds` (SO_RCVTIMEO): a
/// deadline, not a sleep, and a generous one: a server in this process answers on the cooperative pool,
/// which the synchronous tests running beside it can hold for tens of seconds on 2 cores.
final class RawHTTP {
    let fd: Int32

    init(port: Int, seconds: Int = 90) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
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
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Everything until the server closes the connection (or the read deadline passes): its text, and
    /// whether it was closed (rather than timed out).
    func readToEnd() -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n > 0 {
                data += buffer[..<n]
                continue
            }
            let closed = n == 0 || errno == ECONNRESET
            return (String(decoding: data, as: UTF8.self), closed)
        }
    }

    /// One response: the head, then a body of its Content-Length. Nil when none came before the deadline.
    func readResponse() -> (status: Int, head: String, body: String)? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count - end.upperBound >= length {
                    let body = String(decoding: data[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
                    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                    return (status, head, body)
                }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { return nil }
            data += buffer[..<n]
        }
    }

    /// Runs `work` on a Dispatch thread and waits for it: a test that blocks on sockets must not hold a
    /// thread of the cooperative pool, on which the server under test answers (on 2 cores it has 2).
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Sends `request` on a new connection and reads its response.
    static func exchange(port: Int, _ request: String) throws -> (status: Int, head: String, body: String)? {
        let connection = try RawHTTP(port: port)
        connection.send(request)
        return connection.readResponse()
    }
}

/// Runs the application `make` builds (given the callback that learns its port) on loopback, with no test
/// client of its own connected, for `body` (run off the cooperative pool); then stops it.
func withLiveServer<App: ApplicationProtocol>(
    _ make: (@escaping @Sendable (Int) async -> Void) -> App, _ body: @escaping @Sendable (Int) throws -> Void
) async throws {
    let (ports, announce) = AsyncStream<Int>.makeStream()
    let app = make { announce.yield($0) }
    let running = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { running.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    try await RawHTTP.offPool { try body(port) }
    running.cancel()
    _ = await running.result
}
