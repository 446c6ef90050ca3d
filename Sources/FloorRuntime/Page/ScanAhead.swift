import Dispatch
import FloorCore
import FoundationEssentials
import Synchronization

/// A page's scan (PageScanner's streamed `scan(_:schemas:found:)`) on a thread of its own, ahead of the
/// decoder that takes its floors one at a time (PageDecoder): the walk of the next floors (validation,
/// signature, schema check: host code only) runs while a plugin decodes the floor before them, on a second
/// core when there is one (ARCHITECTURE.md, "Pages").
///
/// Contract: `next()` gives what the scan met, in page order, and then `.end` with the page (without floors
/// or problems, which came before) or the syntax error that makes it unusable. The scan reads `bytes` until
/// it has sent `.end`: whoever stops taking before `.end` calls `finish()`, which waits for it. No plugin is
/// ever called from the scan's thread, and nothing it shares with the taker is mutable but the queue.
final class ScanAhead: @unchecked Sendable {
    enum Event: Sendable {
        case found(PageScanner.Found)
        case end(Result<PageSpec, PageSyntaxError>)
    }

    /// Events taken are let go (a floor's spec holds its signature's items).
    private struct Queue: Sendable {
        var events: [Event?] = []
        var taken = 0
    }

    private let queue = Mutex(Queue())
    /// One signal per event put in the queue.
    private let ready = HandOffSignal()
    private var ended = false

    /// Starts the scan of `bytes` (which must stay valid until `.end` is taken, or `finish()` returns),
    /// checking each floor against the schema `schemas` names for its type.
    init(_ bytes: UnsafeRawBufferPointer, schemas: [String: FloorSchema]) {
        // A test's walk log (a task-local value) follows the scan onto its thread.
        let log = JSONWalkLog.current
        let page = UncheckedBytes(bytes: bytes)
        HostThread.start(name: "floorhost page scan") { [self] in
            JSONWalkLog.$current.withValue(log) {
                let result = Result { () throws(PageSyntaxError) -> PageSpec in
                    try PageScanner.scan(page.bytes, schemas: { schemas[$0] }) { found in self.put(.found(found)) }
                }
                self.put(.end(result))
            }
        }
    }

    /// What the scan met next, waiting for it; `.end` last (and again if asked after it).
    func next() -> Event {
        ready.wait()
        return queue.withLock { queue in
            let event = queue.events[queue.taken]!
            if case .end = event {
                ended = true
                ready.signal()  // `.end` stays for a later ask
            } else {
                queue.events[queue.taken] = nil
                queue.taken += 1
            }
            return event
        }
    }

    /// Waits for the scan to end, dropping what it has not yet given.
    func finish() {
        while !ended { _ = next() }
    }

    private func put(_ event: Event) {
        queue.withLock { $0.events.append(event) }
        ready.signal()
    }

    /// The page's bytes, handed to the scan's thread: read there only, while the taker keeps them.
    private struct UncheckedBytes: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
    }
}
