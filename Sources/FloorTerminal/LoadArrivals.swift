import CGlibcExtras
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The view's hop (LoadLoop.Hop): work the load loop sends from another thread (a fetched page to
/// deliver, a retry that came due) is put here, and a byte written to a pipe that the view's poll
/// watches, so the poll loop wakes at once and runs the work on its own thread (decoding calls plugins).
/// Threading: `post` from any thread; `run` and `descriptor` on the loop's.
package final class LoadArrivals: @unchecked Sendable {
    /// The read end of the wake pipe, for poll.
    package let descriptor: Int32
    private let wake: Int32
    private let lock = HostLock()
    private var arrived: [@Sendable () -> Void] = []

    package init() {
        var ends: [Int32] = [-1, -1]
        if floor_pipe_cloexec(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        } else {
            ends = [-1, -1]
        }
        descriptor = ends[0]
        wake = ends[1]
    }

    deinit {
        close(descriptor)
        close(wake)
    }

    package func post(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { arrived.append(work) }
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
    }

    /// Runs every piece of work that arrived since the last call, oldest first, and empties the pipe;
    /// returns whether there was any.
    @discardableResult
    package func run() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
        let work = lock.withLock {
            defer { arrived.removeAll() }
            return arrived
        }
        for item in work { item() }
        return !work.isEmpty
    }
}
