#if canImport(Glibc)
import Glibc
#endif

/// A mutual-exclusion lock around state a class guards by hand: a POSIX mutex, as Foundation's `NSLock`
/// was, without linking Foundation (ARCHITECTURE.md, "Two executables"). Not recursive: the thread that
/// holds it must not take it again. Where the guarded state can live inside the lock, `Mutex` from
/// Synchronization is the better choice; this is for state spread over a class's stored properties.
package final class HostLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
