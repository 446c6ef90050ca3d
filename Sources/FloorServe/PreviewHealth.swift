import FloorCore

/// The preview's side of `/metrics` (ServeMetrics), read at each scrape: what its sessions and its worker
/// are doing now.
public struct PreviewHealth: Sendable {
    /// Sessions kept (SessionEviction bounds them).
    public var sessions: Int
    /// Sessions whose tab is live as SessionEviction counts it: an event stream open, or a view report
    /// within `SessionEviction.liveFor`.
    public var liveTabs: Int
    /// Workers started after the first (a plugin change, a crash or a hang); 0 in process.
    public var workerRestarts: Int
    /// The worker's memory as last read, or nil (in process; no answer from the current worker yet).
    public var workerMemory: WorkerMemoryReading?

    public init(sessions: Int, liveTabs: Int, workerRestarts: Int = 0, workerMemory: WorkerMemoryReading? = nil) {
        self.sessions = sessions
        self.liveTabs = liveTabs
        self.workerRestarts = workerRestarts
        self.workerMemory = workerMemory
    }
}

/// The worker process's memory and when it said so: `/metrics` never waits behind a busy worker
/// (WorkerPreview.health), so a reading may be older than the scrape.
public struct WorkerMemoryReading: Sendable {
    public var memory: ProcessMemory
    public var read: ContinuousClock.Instant

    public init(memory: ProcessMemory, read: ContinuousClock.Instant = .now) {
        self.memory = memory
        self.read = read
    }
}
