import Glibc

/// A mutex: the engine's state (HarfBuzz buffer, ICU iterators, cache) is used by one call at a time. Adaptive
/// (glibc's PTHREAD_MUTEX_ADAPTIVE_NP: a bounded spin before sleeping): its holders keep it for a text's layout,
/// about a microsecond, so a caller that finds it held waits less by spinning than by a sleep and a wake-up
/// across cores (BENCHMARKS.md, issue 23, "The text preview's text blocks laid out where drawn").
final class EngineLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, 3)  // PTHREAD_MUTEX_ADAPTIVE_NP, not imported into Swift
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
