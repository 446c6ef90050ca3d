import CGlibcExtras

#if canImport(Glibc)
import Glibc
#endif

/// A thread of the host's own: a POSIX thread, started at once and detached, that runs one closure and ends.
/// It replaces Foundation's `Thread`, so that floorhost does not map Foundation (and its ICU) at start
/// (ARCHITECTURE.md, "Two executables": floorhost links FoundationEssentials only). Its stack is the
/// platform's default for a new thread (RLIMIT_STACK, 8 MiB here), as Foundation's `Thread` gave, unless
/// `stackSize` asks for another.
package struct HostThread: Sendable {
    /// The thread's id; unique among live threads only.
    package let id: pthread_t

    /// Whether the caller runs on this thread.
    package var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }

    /// Starts `body` on a new thread named `name` (the kernel keeps its first 15 bytes: what `top -H` and
    /// `/proc/<pid>/task/<tid>/comm` show). A thread that cannot be created (out of memory or of the
    /// process's thread limit) ends the process with a message: every caller needs its thread to go on.
    @discardableResult
    package static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void)
        -> HostThread
    {
        let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var id = pthread_t()
        let status = pthread_create(
            &id, &attributes,
            { argument in
                let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
                floor_name_this_thread(work.name)
                work.body()
                return nil
            }, work)
        guard status == 0 else {
            fatalError("floorhost: cannot start the thread \(name): \(String(cString: strerror(status)))")
        }
        pthread_detach(id)
        return HostThread(id: id)
    }

    private final class Work {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
