import CGlibcExtras
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import FloorRuntime
import FloorSession

/// Where the view's next-page loads land when their fetch ends: the fetch runs on a task (the loop goes on
/// scrolling meanwhile), puts its result here and writes a byte to a pipe that the loop's poll watches, so
/// the loop wakes at once and delivers the page on its own thread (decoding calls plugins). Threading: `post`
/// from any thread; `take` and `descriptor` on the loop's.
package final class LoadArrivals: @unchecked Sendable {
    /// The read end of the wake pipe, for poll.
    package let descriptor: Int32
    private let wake: Int32
    private let lock = NSLock()
    private var arrived: [(load: PageSession.Load, result: Result<FetchedPage, PageError>)] = []

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

    /// Starts fetching `load` from `source` on a task; its result arrives here.
    package func fetch(_ load: PageSession.Load, from source: PageSource) {
        Task.detached { [self] in
            post(load, await source.fetch(load.location, linkedFrom: load.linkedFrom))
        }
    }

    package func post(_ load: PageSession.Load, _ result: Result<FetchedPage, PageError>) {
        lock.withLock { arrived.append((load, result)) }
        var byte: UInt8 = 1
        _ = write(wake, &byte, 1)
    }

    /// Every result that arrived since the last call, oldest first; empties the pipe.
    package func take() -> [(load: PageSession.Load, result: Result<FetchedPage, PageError>)] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
        return lock.withLock {
            defer { arrived.removeAll() }
            return arrived
        }
    }
}
