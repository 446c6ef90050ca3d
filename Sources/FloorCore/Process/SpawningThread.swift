import Dispatch

/// The one thread every child of this process is started from; it lives as long as the process. A child
/// of floorhost asks the kernel to kill it when its parent ends (ChildProcess.dieWithParent,
/// PR_SET_PDEATHSIG), and to the kernel that parent is the *thread* that started it: a child started from a
/// pool thread that later ended (Dispatch retires idle threads) was killed with it, a serve worker or a
/// rendering child as much as any. Started from here, a child goes only when this process does.
final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()

    /// Held (taken to 0) by the one caller whose job is in flight.
    private let callers = DispatchSemaphore(value: 1)
    /// The job handed to the thread: set under `callers` before `posted` signals, taken by the thread after
    /// it waited on `posted` (the semaphore orders the two).
    private var job: (() -> Void)?
    private let posted = DispatchSemaphore(value: 0)
    private var thread: HostThread?

    private init() {
        thread = HostThread.start(name: "floorhost-spawn") { [unowned self] in self.serve() }
    }

    /// Runs `body` on the spawning thread and returns what it returned; one caller at a time. (`body` is
    /// escaping: the spawning thread may still hold it, done, when this returns.)
    func run<T>(_ body: @escaping () -> T) -> T {
        if thread?.isCurrent == true { return body() }
        callers.wait()
        defer { callers.signal() }
        var result: T?
        let done = DispatchSemaphore(value: 0)
        job = {
            result = body()
            done.signal()
        }
        posted.signal()
        done.wait()
        return result!
    }

    private func serve() {
        while true {
            posted.wait()
            let work = job.take()!
            work()
        }
    }
}
