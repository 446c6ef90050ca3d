import FloorCore
import FloorSession
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One running worker (`floorhost serve-worker ...`), as the server sees it: requests go to its stdin, and
/// a reader thread parses its frames (WorkerWire), hands answers to the waiting caller, and pushes and page
/// numbers to `onFrame`. The reader also watches the worker's crash record: a plugin call that makes no
/// progress for `callTimeout` seconds gets the worker killed, like PageSupervisor does.
///
/// Threading: `call` may be called from any thread; calls are answered one at a time, in order.
package final class WorkerProcess: @unchecked Sendable {
    /// How the worker ended, once it has.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case crashed(signal: Int32)
        case hung(seconds: Double)
    }

    /// The worker's process id; reaped by the reader thread once its output ends.
    package let pid: pid_t
    private let input: FileHandle
    private let output: Int32
    package let record: CrashRecord
    private let callTimeout: Double
    private let onFrame: @Sendable (WorkerFrame) -> Void

    private let lock = NSLock()
    private let callLock = NSLock()
    private var nextRequest = 0
    private var waiting: [Int: (DispatchSemaphore, Box)] = [:]
    package private(set) var ending: Ending?
    private var hungFor: Double?

    package final class Box: @unchecked Sendable { package var frame: (WorkerFrame.Kind, [UInt8])? }

    /// Where the worker finds its crash record (`--crash-record-fd`).
    package static let recordDescriptor: Int32 = 3

    /// Starts `command` (program first) with a fresh crash record (in memory, handed down as descriptor 3:
    /// `--crash-record-fd 3`). The worker dies with this process.
    package init(command: [String], callTimeout: Double, onFrame: @escaping @Sendable (WorkerFrame) -> Void) throws {
        do {
            record = try CrashRecord.createShared()
        } catch {
            throw ServeFailure(error.message)
        }
        self.callTimeout = callTimeout
        self.onFrame = onFrame
        do throws(ChildProcess.Failure) {
            let requests = try ChildProcess.pipe()
            let frames = try ChildProcess.pipe()
            defer {
                close(requests.read)
                close(frames.write)
            }
            do {
                pid = try ChildProcess.start(
                    ChildArguments.inserting(["--crash-record-fd", String(Self.recordDescriptor)], into: command),
                    standardInput: requests.read, standardOutput: frames.write,
                    passing: [record.descriptor: Self.recordDescriptor])
            } catch {
                close(requests.write)
                close(frames.read)
                throw error
            }
            input = FileHandle(fileDescriptor: requests.write, closeOnDealloc: true)
            output = frames.read
        } catch {
            throw ServeFailure(error.message)
        }
        let thread = Thread { [self] in readFrames() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { close(output) }

    /// Sends `request` and waits for its answer; nil when the worker died first (`ending` says how).
    package func call(_ request: WorkerRequest) -> (WorkerFrame.Kind, [UInt8])? {
        callLock.lock()
        defer { callLock.unlock() }
        var request = request
        let semaphore = DispatchSemaphore(value: 0)
        let box = Box()
        lock.lock()
        guard ending == nil else {
            lock.unlock()
            return nil
        }
        nextRequest += 1
        request.request = nextRequest
        waiting[nextRequest] = (semaphore, box)
        lock.unlock()
        guard let line = try? JSONEncoder().encode(request) else { return nil }
        do {
            try input.write(contentsOf: line + Data([10]))
        } catch {
            // The worker is gone; the reader sees its end and releases the wait.
        }
        semaphore.wait()
        return box.frame
    }

    /// Asks the worker to end (its stdin closes) and kills it if it has not within `grace` seconds.
    package func stop(grace: Double = 1) {
        try? input.close()
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [self] in
            // Not yet reaped (the reader sets `ending` after waitpid), so the id is still the worker's.
            lock.lock()
            defer { lock.unlock() }
            if ending == nil { kill(pid, SIGKILL) }
        }
    }

    private func readFrames() {
        let fd = output
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var seen = record.snapshotForWatch
        var since = Date()
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 100)
            if ready == 0 {
                // No output: is the worker stuck in one plugin call?
                let now = record.snapshotForWatch
                if now != seen {
                    (seen, since) = (now, Date())
                    continue
                }
                if record.lastCall != nil, Date().timeIntervalSince(since) >= callTimeout {
                    lock.lock()
                    hungFor = callTimeout
                    lock.unlock()
                    kill(pid, SIGKILL)
                }
                continue
            }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            buffer += chunk[..<n]
            (seen, since) = (record.snapshotForWatch, Date())
            while let (frame, used) = Self.parse(buffer) {
                buffer.removeSubrange(..<used)
                if case .answer(let request, let kind, let payload) = frame {
                    lock.lock()
                    let waiter = waiting.removeValue(forKey: request)
                    lock.unlock()
                    waiter?.1.frame = (kind, payload)
                    waiter?.0.signal()
                } else {
                    onFrame(frame)
                }
            }
        }
        let end = ChildProcess.waitForEnd(pid)
        lock.lock()
        if let hungFor {
            ending = .hung(seconds: hungFor)
        } else if case .signaled(let signal) = end {
            ending = .crashed(signal: signal)
        } else if case .exited(let status) = end {
            ending = .exited(status)
        }
        let released = waiting
        waiting = [:]
        lock.unlock()
        for (_, (semaphore, _)) in released { semaphore.signal() }
    }

    /// The first whole frame in `bytes` and how many bytes it took, or nil when more must be read.
    package static func parse(_ bytes: [UInt8]) -> (WorkerFrame, Int)? {
        guard let newline = bytes.firstIndex(of: 10) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard let last = header.last, let length = Int(last), bytes.count >= newline + 1 + length else { return nil }
        let payload = Array(bytes[(newline + 1)..<(newline + 1 + length)])
        let used = newline + 1 + length
        switch header.first {
        case "R" where header.count == 4:
            return (
                .answer(
                    request: Int(header[1]) ?? -1, kind: WorkerFrame.Kind(rawValue: String(header[2])) ?? .fail,
                    payload: payload), used
            )
        case "P":
            let text = String(decoding: payload, as: UTF8.self)
            let parts = text.split(separator: " ", maxSplits: 1)
            return (.push(session: String(parts.first ?? ""), message: String(parts.count > 1 ? parts[1] : "")), used)
        case "L" where header.count == 2:
            return (.log(String(decoding: payload, as: UTF8.self)), used)
        case "O" where header.count == 3:
            return (.ordinal(Int32(header[1]) ?? -1, file: String(decoding: payload, as: UTF8.self)), used)
        default:
            return (.push(session: "", message: ""), used)
        }
    }
}
