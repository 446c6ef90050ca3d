import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A counting semaphore for a hand-over between two threads that each keep a core busy (the page's walk and the
/// decoding, the text preview's drawing and its writer): `wait()` spins for a short while before it sleeps,
/// yielding its core at each look.
///
/// Why: a thread that sleeps on a semaphore is woken by the other, and the scheduler tends to wake it on the
/// waker's core, where the two then share one core until it moves one of them; on 2 cores the text preview's
/// writer was seen sharing the drawing's core for 12 ms of a 60 ms drawing (BENCHMARKS.md, issue 23, "Hand-overs
/// that spin before they sleep"), and each wake-up is a system call on the waker's side. A waiter that spins
/// through the other's short gaps is never woken, so it stays on its own core, and a `signal()` with no sleeper
/// is one atomic add. The spin yields (`sched_yield`) between looks: on a core another process needs, a spin
/// that did not yield made the text render 18 % slower than sleeping; one that yields was as fast as sleeping
/// there, and as fast as the plain spin on an idle machine. A wait longer than the spin sleeps as a semaphore's
/// does.
///
/// Contract: a semaphore (the count starts at `value` >= 0; `signal()` adds one, `wait()` takes one, waiting
/// while there is none), for any number of threads. Memory: what a thread wrote before `signal()` is seen
/// after the `wait()` it ends.
package final class HandOffSignal: Sendable {
    /// Permits available, less the threads asleep waiting for one (negative while some sleep).
    private let count: Atomic<Int>
    private let sleepers = DispatchSemaphore(value: 0)
    private let spinNanoseconds: Int

    /// A semaphore holding `value` permits, whose `wait()` spins for up to `spinMicroseconds` before sleeping.
    package init(value: Int = 0, spinMicroseconds: Int = 100) {
        count = Atomic(max(0, value))
        spinNanoseconds = max(0, spinMicroseconds) * 1000
    }

    /// Waiters whose spin ran out and that sleep, or are about to, until a `signal()` wakes them. For a test that
    /// has to meet a waiter asleep; the count may change as soon as it is read.
    package var waitersAsleep: Int { max(0, -count.load(ordering: .relaxed)) }

    package func signal() {
        if count.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue < 0 { sleepers.signal() }
    }

    package func wait() {
        if spinNanoseconds > 0 && takeSpinning() { return }
        if count.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue <= 0 { sleepers.wait() }
    }

    /// Takes a permit as soon as one is there, within the spin; false when the spin ran out.
    private func takeSpinning() -> Bool {
        let deadline = Self.now() &+ spinNanoseconds
        while true {
            let available = count.load(ordering: .relaxed)
            if available > 0
                && count.compareExchange(
                    expected: available, desired: available &- 1, ordering: .acquiringAndReleasing
                ).exchanged
            {
                return true
            }
            if Self.now() >= deadline { return false }
            sched_yield()
        }
    }

    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec &* 1_000_000_000 &+ time.tv_nsec
    }
}
