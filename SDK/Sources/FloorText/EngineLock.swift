import Glibc

/// A mutex: the engine's state (HarfBuzz buffer, ICU iterators, cache) is used by one call at a time. Adaptive
/// (glibc's PTHREAD_MUTEX_ADAPTIVE_NP: a bounded spin before sleeping): its holders keep it for a text's layout,
/// about a microsecond, and while the text preview's writer lays out the blocks its recordings left (a price a
/// card) as the drawing takes titles' lines, a sleep and a wake-up across cores for each such meeting cost more
/// than the wait (BENCHMARKS.md, issue 23, "The text preview's text blocks laid out where drawn").
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
