import FloorCore
import FloorRuntime
import FloorSession
import Foundation

/// One browser tab looking at one page: the PageSession that decides everything (load-more, sticky header,
/// heights, actions), the files it was built from (watched for live reload), and what the tab has been
/// told (layout version, events already sent). The tab only reports where it is scrolled; this answers
/// with the rows near the screen. Threading: guarded by Preview's lock.
package final class PreviewSession {
    package let id: String
    /// The first page, as `serve`'s root argument names it.
    package let file: String
    package let phone: PhoneSize
    /// Nil while the page does not decode (then `error` says why, with file:line:column).
    package private(set) var session: PageSession?
    package private(set) var error: PageError?
    /// Diagnostics of the last build (plugins, page, layout).
    package private(set) var diagnostics: [Diagnostic] = []
    /// Bumped whenever the rows change (a next page's rows, a reload): the tab then takes new heights.
    package private(set) var version = 0
    /// How many of the session's events the tab has been sent.
    package var eventsSent = 0
    /// The files the current rows came from (first page and every next page loaded), as last seen.
    package private(set) var watched: [(file: String, stamp: FileStamp?)] = []
    /// Its files changed since it was built: it is built again before it answers anything.
    package var stale = false
    /// The load loop carrying `session`'s loads (Preview makes one per session it builds).
    package var loads: LoadLoop?
    /// A look for impressions is scheduled (Preview: when the next row on screen is due to count).
    package var impressionCheckScheduled = false
    package var lastUsed = Date()
    /// The tabs' push channels (a tab may reconnect; each connection is one subscriber).
    package var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]

    private let retryPolicy: RetryPolicy
    private let clock: any LoadClock

    package init(
        id: String, file: String, phone: PhoneSize, host: FloorHost, source: PageSource, offset: Double = 0,
        retryPolicy: RetryPolicy = RetryPolicy(), clock: any LoadClock = SystemLoadClock()
    ) {
        self.id = id
        self.file = file
        self.phone = phone
        self.retryPolicy = retryPolicy
        self.clock = clock
        build(host: host, source: source, offset: offset)
    }

    /// Lays the page out again from its files, then replays what the tab had done: scrolls back toward
    /// `offset` (loading next pages on the way as the rules say), as far as the content now allows.
    package func build(host: FloorHost, source: PageSource, offset: Double) {
        version += 1
        stale = false
        eventsSent = 0
        // Stamped before they are read: a save during the build is seen by the next look, not lost.
        watched = ([file] + watched.map(\.file).filter { $0 != file }).map { ($0, FileStamp($0)) }
        do {
            let adapter = try host.layout(page: file, root: source.root, remote: source.remote, width: phone.width)
            // Impressions on the wall clock, with the standard rule: the Events panel lists them.
            let session = PageSession(
                adapter: adapter, viewportHeight: phone.height, source: source, retryPolicy: retryPolicy,
                clock: clock, deliversLoadsImmediately: offset > 0, impressions: .standard, impressionClock: .wall)
            session.scroll(toward: offset)
            session.deliversLoadsImmediately = false
            self.session = session
            error = nil
            diagnostics = host.diagnostics(for: adapter)
        } catch {
            session = nil
            self.error = error
            diagnostics = []
        }
        restamp()
    }

    /// Where the tab should scroll to stay on the content it showed, after a reload moved that content;
    /// sent once with the next answer (ViewUpdate), which then ignores the offset the tab reported.
    package var scrollTo: Double?

    /// The page's files changed: a session that exists reloads in place (PageSession.reload: only changed
    /// rows are measured, the screen stays on the same content, next pages loaded stay loaded); without one
    /// (the page did not decode before) it is built afresh. A page that no longer decodes shows its error.
    package func refresh(host: FloorHost, source: PageSource) {
        guard let session else { return build(host: host, source: source, offset: 0) }
        version += 1
        stale = false
        watched = watched.map { ($0.file, FileStamp($0.file)) }
        do {
            let before = session.viewport.offset
            try session.reload()
            error = nil
            diagnostics = host.diagnostics(for: session.adapter)
            if session.viewport.offset != before { scrollTo = session.viewport.offset }
        } catch {
            self.session = nil
            self.error = error
            diagnostics = []
        }
        restamp()
    }

    /// The files the rows came from: those stamped before keep their stamp, the others (next pages just
    /// loaded) are stamped as they are now.
    package func restamp() {
        let files = session.map { $0.adapter.pages.map(\.file) } ?? [file]
        let known = Dictionary(watched.map { ($0.file, $0.stamp) }, uniquingKeysWith: { first, _ in first })
        watched = files.map { ($0, known[$0] ?? FileStamp($0)) }
    }

    /// Whether a file the rows came from changed since it was stamped.
    package var filesChanged: Bool { watched.contains { FileStamp($0.file) != $0.stamp } }

    /// A row draws differently (a carousel turned): the tab takes every row again with its next view.
    package func rowsRedrawn() {
        version += 1
    }

    /// A next page's rows were laid out (or its load failed): the rows may have changed.
    package func loadDelivered() {
        version += 1
        restamp()
    }

    package func push(_ message: String) {
        for continuation in subscribers.values { continuation.yield(message) }
    }
}
