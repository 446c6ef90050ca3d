import Dispatch
import FloorCore
import FloorRuntime
import FoundationEssentials

/// The one load loop: how a next page the LoadMore rules asked for gets from "loading" to its rows (or its
/// failure), for every front end. Each attempt is the same three steps: take the load the session hands out
/// (`PageSession.startLoad`: at most one at a time, a retry only once due), fetch it off the session's
/// thread (PageSource: whichever provider serves the location), and deliver the result on the session's
/// thread (`finish`: decoded, laid out, or failed and then retried by the session's RetryPolicy, backoff,
/// jitter and Retry-After included). Between a failure and its retry the loop waits on the session's clock
/// (LoadClock.after), so tests that inject a clock time it exactly.
///
/// Front ends say only where and when a result is delivered:
/// - the batch CLI, a resumed view and serve's replay of a tab deliver here and now, blocking
///   (`deliverWaiting`, which PageSession runs itself when it `deliversLoadsImmediately`, and
///   `deliverLoad` runs);
/// - the terminal view (FloorTerminal's ViewLoop) hops to its poll loop through a wake pipe, and delivers
///   no earlier than `--load-latency` after the load started (`latency`);
/// - the browser preview (FloorServe's Preview) hops under its lock, then pushes to the tab (`onStep`).
///
/// Every attempt the loop delivers is noted on the session (`PageSession.loadsRun`), so a test can see
/// that a front end's loads came through here.
///
/// Threading: `pump` and everything `onStep` is told run on the session's thread (or under its lock);
/// fetches run on Dispatch threads, waits on the clock's timers; the hop brings each result back.
public final class LoadLoop: @unchecked Sendable {
    /// Runs `work` on the session's thread (or under the lock that guards it), soon. The loop calls it from
    /// a Dispatch thread with the result of a fetch or a retry that came due.
    public typealias Hop = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// What the loop did, for the front end to show (on the session's thread).
    public enum Step: Sendable {
        /// A load started being fetched; `retry` when it is a retry the policy scheduled, now due.
        case started(PageSession.Load, retry: Bool)
        /// A fetched load was delivered (`PageSession.finish`): its rows are laid out, or it failed (and
        /// its retry may wait: `session.retryDue`).
        case delivered(PageSession.Load)
    }

    /// One attempt the loop delivered, as PageSession.loadsRun notes it.
    public struct Run: Sendable, Equatable {
        public let location: String
        public let driver: Driver
    }

    /// How a load was delivered.
    public enum Driver: String, Sendable, Equatable {
        /// Fetched and delivered on the calling thread, blocking (`deliverWaiting`).
        case waiting
        /// Fetched off the session's thread and delivered through a hop (`pump`).
        case hopping
    }

    public let session: PageSession
    private let hop: Hop
    /// Seconds a load stays in flight at least before it is delivered (0: as soon as it is fetched), so
    /// that a person sees the loading state as on a phone (the view's `--load-latency`).
    public var latency: Double
    /// Told each step, on the session's thread.
    public var onStep: (Step) -> Void

    private let lock = HostLock()
    /// The retry due time a wake-up is scheduled for (one at a time).
    private var wakeFor: Double?

    public init(
        session: PageSession, latency: Double = 0, hop: @escaping Hop,
        onStep: @escaping (Step) -> Void = { _ in }
    ) {
        self.session = session
        self.latency = max(0, latency)
        self.hop = hop
        self.onStep = onStep
    }

    /// Moves the session's load on, without blocking: starts fetching the load it hands out, or, while a
    /// retry waits, arranges to look again when it is due. Call it on the session's thread after anything
    /// that may have asked for a load (a scroll, a resize, a tap on the retry footer, `retry`, a reload);
    /// the loop calls it itself after each delivery and when a retry comes due. Calling it when there is
    /// nothing to do costs nothing.
    public func pump() {
        let retrying = session.retryDue != nil
        if let load = session.startLoad() {
            onStep(.started(load, retry: retrying))
            fetch(load)
        } else if let due = session.retryDue {
            wake(at: due)
        }
    }

    /// Fetches on a Dispatch thread, not on the cooperative pool: work that blocks the pool's few threads
    /// elsewhere in the process (a lock held across a replay, a busy test run) cannot hold a load back.
    /// The wait blocks only that thread (a remote page's transfer runs on it: RemotePageClient.fetchWaiting).
    private func fetch(_ load: PageSession.Load) {
        let source = session.source
        let clock = session.clock
        let started = clock.now
        let latency = latency
        DispatchQueue.global().async { [self] in
            let fetched = source.fetchWaiting(load.location, linkedFrom: load.linkedFrom)
            let deliver: @Sendable () -> Void = { [self] in hop { [self] in self.deliver(load, fetched) } }
            if clock.now >= started + latency { deliver() } else { clock.after(started + latency, deliver) }
        }
    }

    private func deliver(_ load: PageSession.Load, _ fetched: Result<FetchedPage, PageError>) {
        guard session.finish(load, with: fetched, by: .hopping) else { return }  // no longer the load in flight
        onStep(.delivered(load))
        pump()
    }

    /// One wake-up at `due` (a retry coming due), unless one is scheduled for it already.
    private func wake(at due: Double) {
        let scheduled = lock.withLock {
            if wakeFor == due { return true }
            wakeFor = due
            return false
        }
        guard !scheduled else { return }
        session.clock.after(due) { [self] in
            lock.withLock { if wakeFor == due { wakeFor = nil } }
            hop { [self] in pump() }
        }
    }

    /// Finishes `session`'s load in flight here and now, blocking: waits on its clock for a retry that is
    /// due later, fetches (blocking: PageSource.fetchWaiting), and delivers. A load a hopping loop is
    /// fetching is fetched again here, and that loop's result is then ignored. Does not lay out what the
    /// delivery asks for next (the caller's `update` does: PageSession's own loop, without recursion).
    package static func deliverWaiting(_ session: PageSession) {
        if let due = session.retryDue { session.clock.wait(until: due) }
        guard let load = session.startLoad(superseding: true) else { return }
        let fetched = session.source.fetchWaiting(load.location, linkedFrom: load.linkedFrom)
        session.complete(load, with: fetched, by: .waiting)
    }
}
