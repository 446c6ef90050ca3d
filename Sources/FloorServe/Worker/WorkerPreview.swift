import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// `serve` with the plugins out of the server's process (ARCHITECTURE.md, "Front ends"): a loaded library is never
/// unloaded, so plugins and the sessions that call them live in a worker process the server can replace.
///
/// - A plugin library added, changed or removed in the plugin folder: a fresh worker starts (it scans new
///   libraries in a child, as always), every session is replayed into it (its page, width and scroll
///   offset: PreviewSession loads the next pages on the way), it is swapped in, the old one is stopped,
///   and every tab is pushed "reload".
/// - The worker crashed in a plugin call, or made no progress in one for `callTimeout` seconds (it is then
///   killed): its crash record names the floor; a fresh worker replays the sessions with that floor left
///   out (a placeholder saying why), and the request that was being answered is answered by it. Pages are
///   numbered by file (FloorHost.numberPages), so the floor named is the same floor in every worker.
///
/// The server itself loads no plugin and never goes down with one. Threading: any thread; requests to the
/// worker go one at a time.
public final class WorkerPreview: PreviewService, Service, @unchecked Sendable {
    public let rootArgument: String
    public let root: PageRoot
    public let pluginFolder: String
    /// The worker command without the per-worker options (`--crash-record-fd`, `--skip-floor`, `--page-ordinal`).
    public let command: [String]
    public let callTimeout: Double
    /// How often the plugin folder is looked at.
    public let pluginPoll: Duration
    /// Where the lines for serve's terminal go: one for each plugin change and each page error (the
    /// worker's). Standard output by default, where serve said where it listens.
    private let log: @Sendable (String) -> Void

    /// A tab's session as the server keeps it: enough to open it in any worker. `inWorker` is the worker
    /// generation that has it open (nil: none yet; a session is opened in the worker when first asked for
    /// something, so a page request costs the worker nothing).
    private struct SessionState {
        let file: String
        var phone: PhoneSize
        var offset: Double
        var lastUsed = Date()
        var lastViewReport: Date?
        var inWorker: Int?
    }
    /// Sessions kept (and replayed into a fresh worker) at most: the worker's own bound (Preview.maxSessions),
    /// so that a replay never makes the worker forget a session the server still has.
    public let maxSessions = 256

    private let lock = NSLock()
    /// Serialises worker replacement with requests: a request never goes to a worker being replaced.
    private let workerLock = NSLock()
    private var worker: WorkerProcess?
    private var sessions: [String: SessionState] = [:]
    private var subscribers: [String: [UUID: AsyncStream<String>.Continuation]] = [:]
    private var ordinals: [String: Int32] = [:]
    private var skipped: [SkippedFloor] = []
    private var pluginStamps: [String: FileStamp?] = [:]
    /// The worker's memory as `/metrics` last read it, and which worker (generation) it was.
    private var lastMemory: (reading: WorkerMemoryReading, generation: Int)?
    /// Workers started so far (tests and the log read it); also the current worker's generation.
    public private(set) var workersStarted = 0
    private var generation: Int { locked { workersStarted } }

    public init(
        command: [String], pluginFolder: String, root: PageRoot, rootArgument: String, callTimeout: Double = 10,
        pluginPoll: Duration = .milliseconds(250), log: @escaping @Sendable (String) -> Void = ServeLog.standardOutput
    ) throws {
        self.log = log
        self.command = command
        self.pluginFolder = pluginFolder
        self.root = root
        self.rootArgument = rootArgument
        self.callTimeout = callTimeout
        self.pluginPoll = pluginPoll
        signal(SIGPIPE, SIG_IGN)
        pluginStamps = Self.stamps(pluginFolder)
        workerLock.lock()
        defer { workerLock.unlock() }
        try startWorker()
    }

    deinit { worker?.stop(grace: 0.5) }

    // MARK: PreviewService

    public func layoutJSON(_ file: String) -> Result<[UInt8], ServeFailure> {
        guard let (kind, payload) = call(WorkerRequest(request: 0, op: .layout, file: file)) else {
            return .failure(ServeFailure("the preview worker could not lay out the page"))
        }
        return kind == .ok ? .success(payload) : .failure(ServeFailure(String(decoding: payload, as: UTF8.self)))
    }

    /// The worker process's memory (its allocated heap and resident set), or nil when it does not answer.
    public func workerMemory() -> ProcessMemory? { Self.memory(call(WorkerRequest(request: 0, op: .memory))) }

    private static func memory(_ answer: (WorkerFrame.Kind, [UInt8])?) -> ProcessMemory? {
        guard let (kind, payload) = answer, kind == .ok,
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Int],
            let heap = object["heap"], let resident = object["resident"]
        else { return nil }
        return ProcessMemory(heap: heap, resident: resident)
    }

    /// How long `/metrics` waits for the worker to be free before it gives the worker's last reading.
    package static let memoryAskWait: TimeInterval = 0.2

    /// What `/metrics` reads. The worker's memory is asked only when no request holds the worker within
    /// `memoryAskWait` (its answer is then immediate: no plugin runs for it); behind a long request (a slow
    /// or hung plugin call, a worker being replaced) it is the last reading of the same worker, or none.
    /// Never starts or recovers a worker: a scrape changes nothing.
    public func health() -> PreviewHealth {
        var reading: WorkerMemoryReading?
        if workerLock.lock(before: Date(timeIntervalSinceNow: Self.memoryAskWait)) {
            if let current = worker, let memory = Self.memory(current.call(WorkerRequest(request: 0, op: .memory))) {
                reading = WorkerMemoryReading(memory: memory)
                locked { lastMemory = reading.map { ($0, workersStarted) } }
            }
            workerLock.unlock()
        }
        let now = Date()
        return locked {
            PreviewHealth(
                sessions: sessions.count,
                liveTabs: sessions.count(where: {
                    SessionEviction.Candidate(
                        id: $0.key, lastUsed: $0.value.lastUsed, lastViewReport: $0.value.lastViewReport,
                        streams: subscribers[$0.key]?.count ?? 0
                    ).isLive(at: now)
                }),
                workerRestarts: max(0, workersStarted - 1),
                workerMemory: reading ?? lastMemory.flatMap { $0.generation == workersStarted ? $0.reading : nil })
        }
    }

    public func open(_ file: String, phone: PhoneSize, offset: Double = 0) -> String {
        let id = UUID().uuidString.lowercased()
        // A stream's onTermination takes the lock: streams are finished after it is released.
        let forgotten: (tabs: [AsyncStream<String>.Continuation], inWorker: String?) = locked {
            sessions[id] = SessionState(file: file, phone: phone, offset: offset)
            guard sessions.count > maxSessions,
                let oldest = SessionEviction.choose(
                    sessions.filter { $0.key != id }.map {
                        .init(
                            id: $0.key, lastUsed: $0.value.lastUsed, lastViewReport: $0.value.lastViewReport,
                            streams: subscribers[$0.key]?.count ?? 0)
                    })
            else { return ([], nil) }
            let inWorker = sessions.removeValue(forKey: oldest)?.inWorker != nil
            return (Array((subscribers.removeValue(forKey: oldest) ?? [:]).values), inWorker ? oldest : nil)
        }
        for c in forgotten.tabs {
            c.yield(SessionEviction.message)
            c.finish()
        }
        // The worker frees it too (it keeps no session the server forgot).
        if let closed = forgotten.inWorker { _ = call(WorkerRequest(request: 0, op: .close, session: closed)) }
        return id
    }

    public func firstScreen(_ id: String) -> FirstScreen? {
        guard let (kind, payload) = call(WorkerRequest(request: 0, op: .first, session: id)), kind == .ok else {
            return nil
        }
        return try? JSONDecoder().decode(FirstScreen.self, from: Data(payload))
    }

    public func view(_ id: String, offset: Double, knownVersion: Int, held: HeldRows = HeldRows()) -> [UInt8]? {
        locked {
            // Not before the session is open: its first report (offset 0) must not undo a link's ?y=.
            if offset.isFinite, sessions[id]?.inWorker != nil { sessions[id]?.offset = offset }
            let now = Date()
            sessions[id]?.lastUsed = now
            sessions[id]?.lastViewReport = now
        }
        guard
            let (kind, payload) = call(
                WorkerRequest(
                    request: 0, op: .view, session: id, offset: offset, version: knownVersion,
                    held: held.isEmpty ? nil : held)),
            kind == .ok
        else { return nil }
        return payload
    }

    public func tap(_ id: String, row: Int, x: Double, y: Double) -> Result<[UInt8], ServeFailure>? {
        answer(call(WorkerRequest(request: 0, op: .tap, session: id, row: row, x: x, y: y)))
    }

    public func showPage(_ id: String, row: Int, page: Int) -> Result<[UInt8], ServeFailure>? {
        answer(call(WorkerRequest(request: 0, op: .page, session: id, row: row, page: page)))
    }

    /// A tap's or a page turn's answer: the payload, the worker's message, or nil for an unknown session.
    private func answer(_ answer: (WorkerFrame.Kind, [UInt8])?) -> Result<[UInt8], ServeFailure>? {
        guard let (kind, payload) = answer else { return nil }
        switch kind {
        case .ok: return .success(payload)
        case .fail: return .failure(ServeFailure(String(decoding: payload, as: UTF8.self)))
        case .none: return nil
        }
    }

    public func resize(_ id: String, phone: PhoneSize, offset: Double) -> [UInt8]? {
        // Kept first: a worker replaced meanwhile opens the session at the new size.
        locked {
            sessions[id]?.phone = phone
            if offset.isFinite { sessions[id]?.offset = offset }
        }
        guard
            let (kind, payload) = call(
                WorkerRequest(
                    request: 0, op: .resize, session: id, width: phone.width, height: phone.height, offset: offset)),
            kind == .ok
        else { return nil }
        return payload
    }

    public func retry(_ id: String) -> Bool {
        call(WorkerRequest(request: 0, op: .retry, session: id))?.0 == .ok
    }

    public func subscribe(_ id: String) -> AsyncStream<String>? {
        locked {
            guard sessions[id] != nil else { return nil }
            let key = UUID()
            let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
            continuation.onTermination = { [weak self] _ in self?.locked { self?.subscribers[id]?[key] = nil } }
            subscribers[id, default: [:]][key] = continuation
            return stream
        }
    }

    // MARK: Service

    /// Watches the plugin folder and pings the tabs until graceful shutdown; then stops the worker.
    public func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            let clock = ContinuousClock()
            var lastPing = clock.now
            while !Task.isCancelled {
                checkPlugins()
                if clock.now - lastPing >= .seconds(15) {
                    push(toAll: "ping")
                    lastPing = clock.now
                }
                try? await Task.sleep(for: pluginPoll)
            }
        }
        endPushes()
        stopWorker()
    }

    public func endPushes() {
        for c in locked({ subscribers.values.flatMap(\.values) }) { c.finish() }
    }

    private func stopWorker() {
        workerLock.lock()
        defer { workerLock.unlock() }
        worker?.stop()
        worker = nil
    }

    /// Replaces the worker when a plugin library was added, changed or removed since the worker started;
    /// returns whether it did. `run` calls this every `pluginPoll`.
    @discardableResult
    public func checkPlugins() -> Bool {
        let now = Self.stamps(pluginFolder)
        let before = locked { pluginStamps }
        guard now != before else { return false }
        replaceWorker()
        let tabs = locked { subscribers.values.reduce(0) { $0 + $1.count } }
        log(
            "plugins: \(PluginChange.describe(from: before, to: now)); a fresh worker took over, \(tabs) open tab\(tabs == 1 ? "" : "s") updated"
        )
        return true
    }

    /// Starts a fresh worker for the plugin folder as it is now, replays every session into it and swaps
    /// it in; tabs are pushed "reload". A plugin change forgets the floors skipped so far (the plugin that
    /// failed on them may be fixed).
    public func replaceWorker() {
        workerLock.lock()
        defer { workerLock.unlock() }
        locked {
            pluginStamps = Self.stamps(pluginFolder)
            skipped = []
        }
        let old = worker
        worker = nil
        try? startWorker()
        old?.stop()
        push(toAll: "reload")
    }

    // MARK: Worker

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Sends `request` to the worker; when the worker dies answering it (or was dead), recovers (a fresh
    /// worker with the failed floor left out, sessions replayed) and asks once more.
    private func call(_ request: WorkerRequest) -> (WorkerFrame.Kind, [UInt8])? {
        workerLock.lock()
        defer { workerLock.unlock() }
        for _ in 0..<2 {
            if worker == nil { try? startWorker() }
            guard let current = worker else { return nil }
            if let id = request.session, request.op != .open, request.op != .close {
                guard let state = locked({ sessions[id] }) else { return (.none, []) }
                let generation = self.generation
                if state.inWorker != generation {
                    let open = WorkerRequest(
                        request: 0, op: .open, session: id, file: state.file, width: state.phone.width,
                        height: state.phone.height, offset: state.offset, version: Self.firstVersion(generation),
                        replay: state.inWorker != nil)
                    guard current.call(open) != nil else {
                        recover(from: current)
                        continue
                    }
                    locked { sessions[id]?.inWorker = generation }
                }
            }
            if let answer = current.call(request) { return answer }
            recover(from: current)
        }
        return nil
    }

    /// After `dead` ended: notes the floor it failed on (if it was in a plugin call) and starts a fresh
    /// worker. Called with workerLock held.
    private func recover(from dead: WorkerProcess) {
        noteFailure(of: dead)
        worker = nil
        try? startWorker()
    }

    /// The floor `dead` failed on, if it died in a plugin call, joins the floors left out.
    private func noteFailure(of dead: WorkerProcess) {
        let failure: SkippedFloor.Failure?
        switch dead.ending {
        case .crashed(let signal)?: failure = .crashed(signal: signal)
        case .hung(let seconds)?: failure = .hung(seconds: seconds)
        // A plugin's own exit or _exit ends the worker inside its call: that floor is left out as well.
        case .exited(let status)? where dead.record.lastCall != nil: failure = .exited(status: status)
        default: failure = nil
        }
        if let failure, let last = dead.record.lastCall {
            let floor = SkippedFloor(origin: last.floor, call: last.call, failure: failure)
            locked { if !skipped.contains(where: { $0.origin == floor.origin }) { skipped.append(floor) } }
            FileHandle.standardError.write(
                Data(
                    "floorhost serve: the preview worker \(failure) in a plugin's \(last.call.selectorName) on floor \(last.floor.floor) of page #\(last.floor.page); that floor is left out and a fresh worker carries on\n"
                        .utf8))
        }
    }

    /// Starts a worker and replays the sessions into it; a worker that dies during the replay is
    /// recovered from in turn (each time one more floor is left out), at most 32 times. Called with
    /// workerLock held.
    private func startWorker() throws {
        for _ in 0..<32 {
            let (skips, table, replay) = locked { (skipped, ordinals, sessions.filter { $0.value.inWorker != nil }) }
            let options =
                skips.flatMap { ["--skip-floor", $0.argument] }
                + table.flatMap { ["--page-ordinal", "\($0.value)=\($0.key)"] }
            let started = try WorkerProcess(
                command: ChildArguments.inserting(options, into: command), callTimeout: callTimeout
            ) { [weak self] frame in
                self?.received(frame)
            }
            locked { workersStarted += 1 }
            let generation = self.generation
            var alive = true
            // Least recently used first, as the worker's own bound would keep them.
            for (id, state) in replay.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                let open = WorkerRequest(
                    request: 0, op: .open, session: id, file: state.file, width: state.phone.width,
                    height: state.phone.height, offset: state.offset, version: Self.firstVersion(generation),
                    replay: true)
                if started.call(open) == nil {
                    alive = false
                    break
                }
            }
            if alive {
                worker = started
                // Replayed: the first request of each session goes straight to it.
                locked { for id in replay.keys { sessions[id]?.inWorker = generation } }
                return
            }
            noteFailure(of: started)
        }
        throw ServeFailure("the preview worker kept failing")
    }

    private func received(_ frame: WorkerFrame) {
        switch frame {
        case .push(let session, let message):
            let continuations = locked { Array((subscribers[session] ?? [:]).values) }
            for c in continuations { c.yield(message) }
        case .ordinal(let ordinal, let file):
            locked { ordinals[file] = ordinal }
        case .log(let line):
            log(line)
        case .answer:
            break
        }
    }

    private func push(toAll message: String) {
        let continuations = locked { subscribers.values.flatMap { $0.values } }
        for c in continuations { c.yield(message) }
    }

    /// Where the layout versions of worker `generation`'s sessions start: 2^32 apart, so a tab's version
    /// from one worker is never a version of the next (JavaScript numbers hold 2^53: 2^21 workers).
    package static func firstVersion(_ generation: Int) -> Int { generation << 32 }

    /// Every plugin library under the folder with its stamp, and the folder's own: what tells that a plugin
    /// was added, rebuilt or removed, or that a library's or the folder's mode changed (made writable by
    /// others, it is refused by the next worker: plugin trust). Looked at on every poll, mode included.
    package static func stamps(_ folder: String) -> [String: FileStamp?] {
        let libraries = (try? PluginDiscovery.libraries(in: folder)) ?? []
        var stamps = Dictionary(libraries.map { ($0, FileStamp($0)) }, uniquingKeysWith: { first, _ in first })
        stamps[folder] = FileStamp(modeOf: folder)
        return stamps
    }
}
