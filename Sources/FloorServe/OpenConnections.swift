import Foundation
import NIOCore

/// The connections of one server, shared by their ConnectionGuards (one per connection, on any event
/// loop): how many are open, and those still sending request headers, oldest first, for the cap to close;
/// and how many the server closed itself, by why (`/metrics`: ServeMetrics).
/// Threading: any thread; a lock guards everything, and a channel is closed outside it.
public final class OpenConnections: @unchecked Sendable {
    /// Connections the server closed itself since it started (totals, never reset).
    public struct Closes: Sendable, Equatable {
        /// One more would have passed the cap: the oldest still sending headers (or the new one) went.
        public var atCap = 0
        /// Request headers did not arrive within the header timeout (a new or an idle keep-alive one).
        public var headerTimeout = 0
        /// A request body over the limit: answered 413 and closed.
        public var bodyTooLarge = 0
    }

    package let limits: ConnectionLimits
    private let lock = NSLock()
    private var open = 0
    private var closes = Closes()
    /// Connections still sending their request headers, by the ticket they got when they started to.
    private var waiting: [Int: any Channel] = [:]
    /// Tickets in the order they were given; those no longer in `waiting` are skipped (and dropped) lazily.
    private var order: [Int] = []
    private var orderStart = 0
    private var nextTicket = 0

    public init(limits: ConnectionLimits = .standard) { self.limits = limits }

    /// Connections open now.
    public var count: Int { lock.withLock { open } }

    /// The connections closed by the server so far.
    public var closed: Closes { lock.withLock { closes } }

    /// The server closed a connection whose headers were late, or refused its body.
    package func closedForTimeout() { lock.withLock { closes.headerTimeout += 1 } }
    package func closedForBodySize() { lock.withLock { closes.bodyTooLarge += 1 } }

    /// A connection opened. Returns the connection to close to stay within the cap (the oldest still sending
    /// its headers, or `channel` itself when no other is), or nil.
    package func opened(_ channel: any Channel) -> (any Channel)? {
        lock.withLock {
            open += 1
            guard open > limits.maxConnections else { return nil }
            closes.atCap += 1
            while orderStart < order.count {
                let ticket = order[orderStart]
                orderStart += 1
                if let oldest = waiting.removeValue(forKey: ticket) {
                    compact()
                    return oldest
                }
            }
            compact()
            return channel
        }
    }

    /// `channel` starts waiting for a request's headers; its ticket.
    package func awaitsHeaders(_ channel: any Channel) -> Int {
        lock.withLock {
            nextTicket += 1
            waiting[nextTicket] = channel
            order.append(nextTicket)
            return nextTicket
        }
    }

    /// The headers of the request `ticket` waited for arrived.
    package func headersArrived(_ ticket: Int) {
        lock.withLock {
            waiting[ticket] = nil
            compact()
        }
    }

    /// A connection closed; `ticket` when it was still waiting for headers.
    package func closed(waiting ticket: Int?) {
        lock.withLock {
            open -= 1
            if let ticket { waiting[ticket] = nil }
            compact()
        }
    }

    /// Drops skipped tickets from the front once they are half the queue: O(1) amortised per ticket.
    private func compact() {
        while orderStart < order.count, waiting[order[orderStart]] == nil { orderStart += 1 }
        if orderStart > 1024 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
