import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import Foundation

/// The state behind `floorhost serve`: the plugins (one FloorHost), the page root, and one PreviewSession
/// per open tab. Routes (ServeRoutes) are thin over this, and tests call it directly.
///
/// Threading: every method may be called from any thread; one lock serialises them (plugin calls are not
/// reentrant, and a page's work is milliseconds). A load in flight is carried by the session's load loop
/// (LoadLoop): fetched on another thread, outside the lock (a slow server holds up no request, and the
/// tab keeps scrolling), then decoded and laid out under the lock, and the tab is told by a push; a retry
/// the policy scheduled is started when it is due.
public final class Preview: PreviewService, @unchecked Sendable {
    public let host: FloorHost
    public let root: PageRoot
    /// The root folder as `serve` was given it: files are named this way in messages and the json output.
    public let rootArgument: String
    /// Tabs kept at most; the least recently used is forgotten first (its tab reloads to get a new one).
    public let maxSessions: Int
    /// Remote next pages (a page under the root naming a URL on an origin `--allow-origin` allows).
    public let remote: RemotePageClient?
    /// Retries of failed loads (`--retry`), waited for on `clock`.
    public let retryPolicy: RetryPolicy
    package let clock: any LoadClock

    private let lock = NSLock()
    private var sessions: [String: PreviewSession] = [:]
    /// Also told every push (session id, message), besides the session's subscribers: how a worker
    /// process forwards pushes to the server. Set before the first session opens.
    public var onPush: (@Sendable (String, String) -> Void)?
    /// Told one line for each page error (a page that stopped parsing, or parses with another error):
    /// what `serve` prints to its terminal. A worker forwards it to the server. Set before the first
    /// session opens.
    public var onLog: (@Sendable (String) -> Void)?
    /// The error last told for each page file, so that each tab looking at a broken page, and each look,
    /// does not tell it again.
    private var errorsTold: [String: String] = [:]
    /// Where the tab loads the pictures pages name (files under the root, allowed origins).
    package lazy var images = ImageLinks(
        root: root, rootArgument: rootArgument, allowed: remote?.rules.allowed ?? [])
    /// How the tab names files: relative to the root.
    package var paths: RootRelativePaths { RootRelativePaths(root: rootArgument) }

    public init(
        host: FloorHost, root: PageRoot, rootArgument: String, maxSessions: Int = 256, remote: RemotePageClient? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(), clock: any LoadClock = SystemLoadClock()
    ) {
        self.host = host
        self.root = root
        self.rootArgument = rootArgument
        self.maxSessions = max(1, maxSessions)
        self.remote = remote
        self.retryPolicy = retryPolicy
        self.clock = clock
    }

    /// Where sessions read pages from.
    package var source: PageSource { host.pageSource(root: root, remote: remote) }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Pages

    /// Exactly what `floorhost <file> --format json` prints for the page as its file is now, or why it
    /// does not decode.
    public func layoutJSON(_ file: String) -> Result<[UInt8], ServeFailure> {
        locked {
            let phone = PhoneSize.standard
            let adapter: Adapter
            do {
                adapter = try host.layout(page: file, root: root, width: phone.width)
            } catch {
                return .failure(ServeFailure("\(error)"))
            }
            let session = PageSession(adapter: adapter, viewportHeight: phone.height, source: source)
            return .success(
                JSONRenderer.render(session, plugins: host.plugins, diagnostics: host.diagnostics(for: adapter)))
        }
    }

    // MARK: Sessions

    /// A new session (one tab) on `file`; it exists even when the page does not decode (it shows the error,
    /// and recovers when the file is fixed).
    public func open(_ file: String, phone: PhoneSize, offset: Double = 0) -> String {
        open(file, phone: phone, id: UUID().uuidString.lowercased(), offset: offset)
    }

    /// A session with a given id, scrolled toward `offset` (loading next pages on the way), its layout
    /// versions starting after `firstVersion`: how a fresh worker takes over the sessions of the one it
    /// replaces (WorkerPreview gives each worker versions of its own). With `eventsSeen`, the events of
    /// getting back to `offset` are not sent to the tab, which had them from the worker before.
    @discardableResult
    public func open(
        _ file: String, phone: PhoneSize, id: String, offset: Double, firstVersion: Int = 0, eventsSeen: Bool = false
    ) -> String {
        // A stream's onTermination takes the lock: streams are finished after it is released.
        let forgotten: [AsyncStream<String>.Continuation] = locked {
            var forgotten: [AsyncStream<String>.Continuation] = []
            if sessions.count >= maxSessions,
                let oldest = SessionEviction.choose(
                    sessions.values.map {
                        .init(
                            id: $0.id, lastUsed: $0.lastUsed, lastViewReport: $0.lastViewReport,
                            streams: $0.subscribers.count)
                    })
            {
                forgotten = Array(sessions[oldest]?.subscribers.values ?? [:].values)
                sessions[oldest] = nil
            }
            let preview = PreviewSession(
                id: id, file: file, phone: phone, host: host, source: source, offset: offset,
                firstVersion: firstVersion, retryPolicy: retryPolicy, clock: clock)
            sessions[id] = preview
            if eventsSeen {
                preview.eventsSent = preview.session?.eventCount ?? 0
            } else if offset > 0, let session = preview.session {
                preview.scrollTo = session.viewport.offset  // a link with ?y=: the tab scrolls there first
            }
            tellError(of: preview)
            scheduleDelivery(preview)
            return forgotten
        }
        for continuation in forgotten {
            continuation.yield(SessionEviction.message)
            continuation.finish()
        }
        return id
    }

    public func firstScreen(_ id: String) -> FirstScreen? {
        locked {
            guard let preview = current(id) else { return nil }
            guard preview.error == nil, let session = preview.session else {
                return FirstScreen(
                    rows: "", height: 0, title: nil,
                    error: paths(preview.error?.description ?? "the page did not decode"))
            }
            let adapter = session.adapter
            let rows = adapter.visibleRows(in: session.viewport).map {
                preview.rowHTML($0, images: images, paths: paths)
            }.joined()
            return FirstScreen(rows: rows, height: adapter.totalHeight, title: adapter.page.title, error: nil)
        }
    }

    /// The tab reports its scroll offset: the session scrolls there (willDisplay, load-more, all decided by
    /// PageSession), and the answer is what the tab draws (ViewUpdate). `knownVersion` is the layout
    /// version the tab has (diagnostics are sent only when it differs); `held`, the rows it holds, which are
    /// not drawn again while unchanged (HeldRows). Nil for an unknown session.
    public func view(_ id: String, offset: Double, knownVersion: Int, held: HeldRows = HeldRows()) -> [UInt8]? {
        locked {
            guard let preview = current(id) else { return nil }
            preview.lastUsed = Date()
            preview.lastViewReport = preview.lastUsed
            // After a reload moved the tab's content, the tab is told where it went (ViewUpdate's scrollTo)
            // rather than scrolled back to where the content was.
            if let session = preview.session, preview.error == nil, offset.isFinite, preview.scrollTo == nil {
                session.scroll(to: offset)
                scheduleDelivery(preview)
                scheduleImpressions(preview)
            } else if preview.session == nil, offset.isFinite {
                preview.wantedOffset = max(0, offset)
            }
            return ViewUpdate.json(
                preview, knownVersion: knownVersion, held: held, paths: paths, images: images)
        }
    }

    /// The action of a click at (`x`, `y`) points from row `row`'s top-left (a page-wide row index): the item
    /// whose frame holds the point (docs/ABI.md, "Item frames"; a row reporting none shares its width among
    /// its items, and `y` is not looked at), and the session performs the tap. Nil for an unknown session.
    public func tap(_ id: String, row: Int, x: Double, y: Double) -> Result<[UInt8], ServeFailure>? {
        locked {
            guard let preview = current(id) else { return nil }
            guard preview.error == nil, let session = preview.session, case let adapter = session.adapter, row >= 0,
                row < adapter.rowCount
            else {
                return .failure(ServeFailure("no action: no row \(row) on the page"))
            }
            let info = adapter.describe(row: row)
            // A row with no tappable items goes on to the session's tap, which says so.
            let hit = adapter.item(atX: x, y: y.isFinite ? y : 0, row: row)
            guard let item = hit ?? (adapter.tappableItems(row: row) == 0 ? 0 : nil) else {
                return .failure(
                    ServeFailure(
                        "no action: nothing tappable at (\(Int(x)), \(Int(y.isFinite ? y : 0))) of row \(info.section):\(info.row) (\(info.type) of floor '\(info.floor)')"
                    ))
            }
            // The session's tap: on the failed load-state footer it also retries the load.
            switch session.tap(section: info.section, row: info.row, item: item) {
            case .success(let action):
                if action.url == LoadStateFooter.retryURL { scheduleDelivery(preview) }
                return .success(Array(TapOutput.json(action).utf8))
            case .failure(let none): return .failure(ServeFailure("no action: \(none)"))
            }
        }
    }

    /// Shows page `page` of row `row` (a carousel; PageSession.showPage) and answers the page shown with the
    /// row's page count. The rows are new to the tab (their version moves), so its next view redraws them.
    public func showPage(_ id: String, row: Int, page: Int) -> Result<[UInt8], ServeFailure>? {
        locked {
            guard let preview = current(id) else { return nil }
            guard let session = preview.session, row >= 0, row < session.adapter.rowCount else {
                return .failure(ServeFailure("no page: no row \(row) on the page"))
            }
            let pages = session.pageCount(ofRow: row)
            guard pages > 1 else {
                let info = session.adapter.describe(row: row)
                return .failure(
                    ServeFailure(
                        "no page: row \(info.section):\(info.row) (\(info.type) of floor '\(info.floor)') is not paged")
                )
            }
            let shown = session.showPage(page, ofRow: row)
            preview.rowsRedrawn()
            scheduleImpressions(preview)
            return .success(Array(#"{"row":\#(row),"page":\#(shown),"pages":\#(pages)}"#.utf8) + [10])
        }
    }

    /// The tab switched devices: the session is laid out for `phone`, keeping its pages, events and the
    /// content at `offset` on screen (PreviewSession.resize); the answer is a view update with every row
    /// and where to scroll. Nil for an unknown session.
    public func resize(_ id: String, phone: PhoneSize, offset: Double) -> [UInt8]? {
        locked {
            guard let preview = current(id) else { return nil }
            preview.lastUsed = Date()
            preview.resize(to: phone, offset: offset)
            scheduleDelivery(preview)
            return ViewUpdate.json(preview, knownVersion: -1, paths: paths, images: images)
        }
    }

    /// Starts a failed load again (the tab's retry button). False for an unknown session.
    public func retry(_ id: String) -> Bool {
        locked {
            guard let preview = current(id), let session = preview.session else { return false }
            session.retry()
            scheduleDelivery(preview)
            return true
        }
    }

    // MARK: Pushes

    /// Forgets session `id` (the server forgot it: SessionEviction): its memory is freed, its tabs told.
    public func close(_ id: String) {
        let forgotten = locked { Array(sessions.removeValue(forKey: id)?.subscribers.values ?? [:].values) }
        for continuation in forgotten {
            continuation.yield(SessionEviction.message)
            continuation.finish()
        }
    }

    /// In process, there is no worker: only the sessions.
    public func health() -> PreviewHealth {
        let now = Date()
        return locked {
            PreviewHealth(
                sessions: sessions.count,
                liveTabs: sessions.values.count(where: {
                    SessionEviction.Candidate(
                        id: $0.id, lastUsed: $0.lastUsed, lastViewReport: $0.lastViewReport,
                        streams: $0.subscribers.count
                    ).isLive(at: now)
                }))
        }
    }

    /// The sessions kept now, by id (tests; the lock is taken).
    package var sessionIDs: Set<String> { locked { Set(sessions.keys) } }
    package func kept(_ id: String) -> PreviewSession? { locked { sessions[id] } }

    /// Push streams open now, over every session (a tab's stream ends when its connection closes).
    package var openPushStreams: Int { locked { sessions.values.reduce(0) { $0 + $1.subscribers.count } } }

    /// The push messages for a session's tab ("changed": ask for a view again; "reload": the page was
    /// laid out again from its files). Nil for an unknown session. The stream ends when the session is
    /// forgotten; the subscription ends when the consumer stops iterating.
    public func subscribe(_ id: String) -> AsyncStream<String>? {
        locked {
            guard let preview = sessions[id] else { return nil }
            let key = UUID()
            let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
            continuation.onTermination = { [weak self] _ in
                self?.locked { self?.sessions[id]?.subscribers[key] = nil }
            }
            preview.subscribers[key] = continuation
            return stream
        }
    }

    /// Marks every session whose page files changed since it was built as stale and pushes "reload" to
    /// its tabs; returns how many. A stale session is laid out again from its files (keeping its scroll
    /// offset as far as the content allows) when its tab next asks for anything, so a save costs a stat
    /// per watched file here, and a layout only for the tabs that look. PageWatcher calls this a few
    /// times a second.
    @discardableResult
    public func reloadChangedPages() -> Int {
        locked {
            var changed = 0
            for preview in sessions.values where !preview.stale && preview.filesChanged {
                preview.stale = true
                push(preview, "reload")
                changed += 1
            }
            return changed
        }
    }

    /// The session `id`, laid out again first if its files changed. Called with the lock held.
    private func current(_ id: String) -> PreviewSession? {
        guard let preview = sessions[id] else { return nil }
        if preview.stale {
            preview.refresh(host: host, source: source)
            tellError(of: preview)
            scheduleDelivery(preview)
        }
        return preview
    }

    /// Tells `onLog` the session's page error when it is news: once per file and message, until the
    /// page decodes again. Called with the lock held.
    private func tellError(of preview: PreviewSession) {
        guard let error = preview.error else {
            errorsTold[preview.file] = nil
            return
        }
        let message = paths(error.description)
        guard errorsTold[preview.file] != message else { return }
        errorsTold[preview.file] = message
        onLog?("page error: \(message)")
    }

    /// Pings every push stream (PageWatcher): a stream whose tab went away fails to write and ends.
    public func ping() {
        locked { for preview in sessions.values { push(preview, "ping") } }
    }

    /// Ends every push stream (the server is stopping).
    public func endPushes() {
        for continuation in locked({ sessions.values.flatMap { $0.subscribers.values } }) { continuation.finish() }
    }

    /// A session's PageSession, for tests; nil for an unknown session.
    package func withSession<T>(_ id: String, _ body: (PreviewSession) -> T) -> T? {
        locked { sessions[id].map(body) }
    }

    private func push(_ preview: PreviewSession, _ message: String) {
        preview.push(message)
        onPush?(preview.id, message)
    }

    // MARK: Loads

    /// Moves the session's load in flight on through its load loop (LoadLoop: fetched on another thread,
    /// outside the lock, after the request that started it has been answered; a retry the policy scheduled
    /// started when due). The loop hops back under the lock, into this session only while it is the tab's current
    /// one and not stale (a rebuilt session started its own load; a stale one is rebuilt, and its load
    /// started again, when its tab asks), and the tab is told by a push. Called with the lock held.
    private func scheduleDelivery(_ preview: PreviewSession) {
        guard let session = preview.session else { return }
        if preview.loads?.session !== session { preview.loads = loop(for: session, of: preview.id) }
        preview.loads?.pump()
    }

    private func loop(for session: PageSession, of id: String) -> LoadLoop {
        LoadLoop(
            session: session,
            hop: { [weak self] work in
                self?.locked {
                    guard let preview = self?.sessions[id], preview.session === session, !preview.stale else { return }
                    work()
                }
            },
            onStep: { [weak self] step in
                guard let self, let preview = sessions[id] else { return }
                switch step {
                case .started(_, let retry):
                    if retry { push(preview, "changed") }  // a retry that came due: the tab shows it loading again
                case .delivered:
                    preview.loadDelivered()
                    push(preview, "changed")
                }
            })
    }

    /// Impressions run on the wall clock, and a row counts while nobody scrolls: when the next row on
    /// screen is due, the session looks again and the tab is told ("changed") when something counted, so
    /// its next answer carries the impression events. Timers run on Dispatch, not on the cooperative pool,
    /// so work that blocks the pool's few threads elsewhere in the process cannot hold them back.
    private func scheduleImpressions(_ preview: PreviewSession) {
        guard let due = preview.session?.impressions?.nextDue, !preview.impressionCheckScheduled else { return }
        preview.impressionCheckScheduled = true
        let id = preview.id
        let delay = max(0, due - ImpressionClock.wallMilliseconds())
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.rounded(.up)) + 1)) { [self] in
            lookForImpressions(id)
        }
    }

    private func lookForImpressions(_ id: String) {
        locked {
            guard let preview = sessions[id], let session = preview.session else { return }
            preview.impressionCheckScheduled = false
            guard !preview.stale else { return }
            let before = session.eventCount
            session.observeImpressions()
            if session.eventCount > before { push(preview, "changed") }
            scheduleImpressions(preview)
        }
    }
}
