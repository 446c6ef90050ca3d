import FloorCore
import FloorRender
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
    package private(set) var phone: PhoneSize
    /// Nil until the page first decodes. Kept while the page does not parse any more: the tab shows the
    /// error over the page, and the page comes back where it was once the file parses again.
    package private(set) var session: PageSession?
    /// Why the page does not decode now (file:line:column: reason), and the line it points at.
    package private(set) var error: PageError?
    package private(set) var errorLine: PageErrorLine?
    /// Diagnostics of the last build (plugins, page, layout), every one (LeftOutItems marks each place).
    private var builtDiagnostics: [Diagnostic] = []
    /// Bumped whenever the rows change (a next page's rows, a reload): the tab then takes new heights.
    /// Starts where the opener says: a fresh serve worker starts its sessions past every version the tab
    /// could have from the worker before, so a tab never takes a new layout for the one it has.
    package private(set) var version: Int
    /// Where the tab was scrolled while there was no session to scroll: where a build starts.
    package var wantedOffset: Double
    /// How many of the session's events the tab has been sent (PageSession.eventCount: dropped ones included).
    package var eventsSent = 0
    /// The events a tab's session keeps, the newest: the Events panel shows the last ones, and a session
    /// scrolled all day stays within memory (each event is tens of bytes: about 1 MB at most, twice this).
    package static let eventLimit = 10_000
    /// The files the current rows came from (first page and every next page loaded), as last seen.
    package private(set) var watched: [(file: String, stamp: FileStamp?)] = []
    /// Its files changed since it was built: it is built again before it answers anything.
    package var stale = false
    /// The load loop carrying `session`'s loads (Preview makes one per session it builds).
    package var loads: LoadLoop?
    /// A look for impressions is scheduled (Preview: when the next row on screen is due to count).
    package var impressionCheckScheduled = false
    package var lastUsed = Date()
    /// When the tab last reported its scroll offset (SessionEviction: a live tab is never forgotten for idle ones).
    package var lastViewReport: Date?
    /// The tabs' push channels (a tab may reconnect; each connection is one subscriber).
    package var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]

    private let retryPolicy: RetryPolicy
    private let clock: any LoadClock

    package init(
        id: String, file: String, phone: PhoneSize, host: FloorHost, source: PageSource, offset: Double = 0,
        firstVersion: Int = 0, retryPolicy: RetryPolicy = RetryPolicy(), clock: any LoadClock = SystemLoadClock()
    ) {
        self.id = id
        self.file = file
        self.phone = phone
        self.version = firstVersion
        self.wantedOffset = offset
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
            session.eventLimit = Self.eventLimit
            session.scroll(toward: offset)
            session.deliversLoadsImmediately = false
            self.session = session
            error = nil
            errorLine = nil
            builtDiagnostics = host.everyDiagnostic(for: adapter)
        } catch {
            session = nil
            failed(error, root: source.root)
        }
        restamp()
    }

    /// What the tab lists under Diagnostics: the build's, and one for each next page that failed to load
    /// and has not loaded since; while the page does not parse, its error. One problem at many places is
    /// listed once, with its count and first places (Diagnostic.grouped).
    package var diagnostics: [Diagnostic] {
        if let error { return [Diagnostic(.error, error.description, file: error.file, path: error.path)] }
        guard let session else { return Diagnostic.grouped(builtDiagnostics) }
        // A next page that failed and then loaded (a retry) is no longer a problem on the tab's screen.
        let loaded = Set(
            session.events.compactMap { event -> String? in
                if case .loadMoreCompleted(_, let page, _) = event { return page }
                return nil
            })
        return Diagnostic.grouped(builtDiagnostics + session.loadDiagnostics.filter { !loaded.contains($0.file ?? "") })
    }

    private func failed(_ error: PageError, root: PageRoot?) {
        self.error = error
        errorLine = root.flatMap { PageErrorLine.of(error, root: $0) }
    }

    /// Where the tab should scroll to stay on the content it showed, after a reload moved that content;
    /// sent once with the next answer (ViewUpdate), which then ignores the offset the tab reported.
    package var scrollTo: Double?

    /// The page's files changed: a session that exists reloads in place (PageSession.reload: only changed
    /// rows are measured, the screen stays on the same content, next pages loaded stay loaded); without one
    /// (the page did not decode before) it is built afresh, at the offset the tab was at. A page that no
    /// longer decodes shows its error over the rows it had, which come back when it decodes again.
    package func refresh(host: FloorHost, source: PageSource) {
        guard let session else { return build(host: host, source: source, offset: wantedOffset) }
        version += 1
        stale = false
        watched = watched.map { ($0.file, FileStamp($0.file)) }
        do {
            let before = session.viewport.offset
            try session.reload()
            error = nil
            errorLine = nil
            builtDiagnostics = host.everyDiagnostic(for: session.adapter)
            if session.viewport.offset != before { scrollTo = session.viewport.offset }
        } catch {
            // The session stays as it was: shown under the error until the file parses again.
            failed(error, root: source.root)
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

    /// The tab switched to another screen (the device menu): the page is laid out at the new width
    /// (Adapter.setWidth: rows measured at that width before are not measured again), the next pages
    /// loaded stay loaded, the events go on, and the screen stays on the content it showed: the row at
    /// the top of the screen at `offset` keeps the same fraction of itself above the screen's top edge.
    /// The tab is told where that is (scrollTo).
    package func resize(to phone: PhoneSize, offset: Double) {
        self.phone = phone
        guard let session else { return }
        let adapter = session.adapter
        let top = offset.isFinite ? max(0, offset) : session.viewport.offset
        let anchor = adapter.row(at: top).map { r -> (Int, Double) in
            let info = adapter.describe(row: r)
            return (r, info.height > 0 ? (top - info.y) / info.height : 0)
        }
        adapter.setWidth(phone.width)
        session.resize(viewportHeight: phone.height, width: phone.width)
        if let (row, fraction) = anchor, row < adapter.rowCount {
            let info = adapter.describe(row: row)
            session.scroll(to: info.y + fraction * info.height)
        }
        scrollTo = session.viewport.offset
        version += 1
    }

    /// Row `r`'s element, as HTMLRenderer draws it, with a mark for each item its plugin left out there.
    /// Pictures are drawn where `images` gives them an address; the load-state footer names page files
    /// relative to the root (`paths`), as the rest of the tab does.
    package func rowHTML(_ r: Int, images: ImageLinks? = nil, paths: RootRelativePaths? = nil) -> String {
        guard let adapter = session?.adapter else { return "" }
        var html = HTMLRenderer.row(adapter, r, images: images.map { links in { links.link($0, page: $1) } })
        if let paths, r == adapter.footerRow { html = paths(html) }
        guard let marks = leftOutMarks[r], html.hasSuffix("</div>\n") else { return html }
        return String(html.dropLast(7)) + LeftOutItems.html(marks, rowWidth: adapter.width) + "</div>\n"
    }

    private var marksVersion = -1
    private var marksOfVersion: [Int: [LeftOutItems.Mark]] = [:]
    /// The left-out items' marks by row, found once per layout version.
    private var leftOutMarks: [Int: [LeftOutItems.Mark]] {
        if marksVersion != version {
            marksOfVersion = session.map { LeftOutItems.marks($0.adapter, warnings: builtDiagnostics) } ?? [:]
            marksVersion = version
        }
        return marksOfVersion
    }

    private var tagsVersion = -1
    private var tags: [Int: String] = [:]
    /// The tag (HeldRows) of row `r` as this layout version draws it, when an answer has drawn it: a row the
    /// tab holds under it is then not drawn again. Not kept for the load-state footer, which draws the load's
    /// state as it changes.
    package func tag(ofRow r: Int) -> String? {
        tagsVersion == version ? tags[r] : nil
    }

    package func remember(_ tag: String, ofRow r: Int) {
        if tagsVersion != version {
            tags = [:]
            tagsVersion = version
        }
        if r != session?.adapter.footerRow { tags[r] = tag }
    }

    /// Forgets the tags of rows other than `rows` and `pinned` (those an answer lists): the tags kept stay
    /// proportional to the screen.
    package func keepTags(of rows: Range<Int>, pinned: Int?) {
        let listed = { (r: Int) in rows.contains(r) || r == pinned }
        if tags.keys.contains(where: { !listed($0) }) { tags = tags.filter { listed($0.key) } }
    }

    package func push(_ message: String) {
        for continuation in subscribers.values { continuation.yield(message) }
    }
}
