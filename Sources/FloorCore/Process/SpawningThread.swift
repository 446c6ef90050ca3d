import Foundation

/// The one thread every child of this process is started from; it lives as long as the process. A child
/// of floorhost asks the kernel to kill it when its parent ends (ChildProcess.dieWithParent,
/// PR_SET_PDEATHSIG), and to the kernel that parent is the *thread* that started it: a child started from a
/// pool thread that later ended (Dispatch retires idle threads) was killed with it, a serve worker or a
/// rendering child as much as any. Started from here, a child goes only when this process does.
final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()

    private let condition = NSCondition()
    private let callers = NSLock()
    private var job: (() -> Void)?
    private var thread: Thread?

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "floorhost-spawn"
        self.thread = thread
        thread.start()
    }

    /// Runs `body` on the spawning thread and returns what it returned; one caller at a time. (`body` is
    /// escaping: the spawning thread may still hold it, done, when this returns.)
    func run<T>(_ body: @escaping () -> T) -> T {
        if Thread.current === thread { return body() }
        callers.lock()
        defer { callers.unlock() }
        var result: T?
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        job = {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }

    private func serve() {
        while true {
            condition.lock()
            while job == nil { condition.wait() }
            let work = job!
            job = nil
            condition.unlock()
            work()
        }
    }
}
