import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM for `serve`: the application's service group stops gracefully on either (stops
/// accepting, ends the push streams, stops the worker); this notes which came, so that `serve` exits
/// 128 + N as every floorhost command does, and holds the stop to `deadline`: a stop that has not finished
/// by then (a connection that will not close, a worker that does not end) exits anyway, killing the
/// worker with this process (it dies with its parent).
package final class StopSignal: @unchecked Sendable {
    /// Seconds from the signal to the exit at the latest.
    package static let deadline = 1.8

    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []

    private let noted = DispatchSemaphore(value: 0)

    /// The signal that stopped the server: the server stops only on a signal, and the service group may
    /// have seen it before this did, so a stopped server waits for it (at most `within` seconds).
    package func signal(within seconds: Double) -> Int32? {
        if let received = lock.withLock({ received }) { return received }
        _ = noted.wait(timeout: .now() + seconds)
        return lock.withLock { received }
    }

    package init() {
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in note(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func note(_ number: Int32) {
        let first = lock.withLock {
            defer { if received == nil { received = number } }
            return received == nil
        }
        guard first else { return }
        noted.signal()
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline) {
            FileHandle.standardError.write(
                Data("floorhost serve: stopping took over \(Self.deadline) s; exiting anyway\n".utf8))
            _exit(128 + number)
        }
    }
}
