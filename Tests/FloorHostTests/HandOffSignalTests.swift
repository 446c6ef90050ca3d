import Dispatch
import FloorCore
import Synchronization
import Testing

/// HandOffSignal is a counting semaphore whatever its spin: permits given at the start are taken without a wait,
/// and no signal is lost between two threads, whether the waiter took it while spinning or asleep.
struct HandOffSignalTests {
    @Test(arguments: [0, 100])
    func permitsGivenAtTheStartAreTakenWithoutAWait(spinMicroseconds: Int) {
        let signal = HandOffSignal(value: 2, spinMicroseconds: spinMicroseconds)
        signal.wait()
        signal.wait()
        signal.signal()
        signal.wait()
        // Had a wait taken a permit that was not there, the count would be below zero and this thread's wait
        // would sleep; another thread's signal ends it.
        let ended = DispatchSemaphore(value: 0)
        HostThread.start(name: "test signaller") {
            signal.signal()
            ended.signal()
        }
        signal.wait()
        #expect(ended.wait(timeout: .now() + 10) == .success)
    }

    /// A producer hands 20,000 numbers over one at a time, and a consumer takes them: every one arrives, in
    /// order. The consumer sometimes spins through a gap and sometimes sleeps: every 1,000th number is handed
    /// over only once the consumer, having taken the ones before, has run out of spin and sleeps. With no spin
    /// it sleeps every time it finds nothing.
    @Test(arguments: [0, 20, 100])
    func noSignalIsLostBetweenTwoThreads(spinMicroseconds: Int) {
        let count = 20_000
        let handed = HandOffSignal(spinMicroseconds: spinMicroseconds)
        let queue = Mutex<[Int]>([])
        let taken = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        HostThread.start(name: "test consumer") {
            for _ in 0..<count {
                handed.wait()
                let number = queue.withLock { $0.removeFirst() }
                taken.withLock { $0.append(number) }
            }
            done.signal()
        }
        for number in 0..<count {
            if number % 1_000 == 999 {
                let asleep = eventually(seconds: 10) { handed.waitersAsleep == 1 ? true : nil }
                #expect(asleep == true, "the consumer never slept waiting for number \(number)")
            }
            queue.withLock { $0.append(number) }
            handed.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the consumer waits for a signal that was lost")
        #expect(taken.withLock { $0 } == Array(0..<count))
    }
}
