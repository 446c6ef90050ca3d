import CGlibcExtras
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process that may crash or hang: its stdout is read line by line as it comes,
/// a deadline kills it (SIGKILL) when it stops making progress, and how it ended (exit status, signal,
/// timeout) comes back as a value. This is how the host keeps a plugin's crash out of its own process.
/// `runInheritingOutput` is the plain form: the child writes to this process's own stdout and stderr;
/// `spawnInheritingOutput` and `forkInheritingOutput` (ForkedChild.swift) start such a child, spawned or
/// this process forked, and `Running.wait` waits for it.
///
/// `run`'s child gets /dev/null as stdin; every child gets SWIFT_BACKTRACE=enable=no (a crash report
/// should be the signal, not seconds of symbolication) and this process's id in FLOORHOST_PARENT_PID, by
/// which `dieWithParent()` in the child makes sure it never outlives this process. Pipes are
/// close-on-exec, so concurrent spawns never inherit each other's ends. Threading: every form blocks the
/// calling thread; separate calls may run on separate threads (but a fork only from a process of one).
public struct ChildProcess {
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed after `seconds` without the progress `onLine` asked for.
        case timedOut(seconds: Double)
    }

    package struct Outcome: Sendable {
        package let ending: Ending
        /// The end of what the child wrote to stderr (at most the last 16 KB).
        package let stderr: String
    }

    public struct Failure: Error, Sendable { public let message: String }

    /// Runs `arguments[0]` with `arguments`. The deadline is `timeout` seconds after the start, and again
    /// after every line for which `onLine` returns true.
    package static func run(_ arguments: [String], timeout: Double, onLine: (String) -> Bool) throws(Failure) -> Outcome
    {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard floor_pipe_cloexec(&out) == 0, floor_pipe_cloexec(&err) == 0 else {
            throw Failure(message: "cannot create a pipe for a child process: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        floor_spawn_close_from(&actions, 3)  // nothing else of this process reaches the child
        var pid: pid_t = 0
        let spawned = spawn(&pid, arguments, actions: &actions)
        close(out[1])
        close(err[1])
        guard spawned == 0 else {
            close(out[0])
            close(err[0])
            throw Failure(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        defer {
            close(out[0])
            close(err[0])
        }

        var deadline = now() + timeout
        var lineBuffer: [UInt8] = []
        var errTail: [UInt8] = []
        var outOpen = true
        var errOpen = true
        var chunk = [UInt8](repeating: 0, count: 65536)
        while outOpen || errOpen {
            let remaining = deadline - now()
            if remaining <= 0 { return killed(pid, after: timeout, stderr: errTail) }
            var fds = [
                pollfd(fd: outOpen ? out[0] : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errOpen ? err[0] : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            if fds[0].revents != 0 {
                let n = read(out[0], &chunk, chunk.count)
                if n <= 0 {
                    outOpen = false
                } else {
                    lineBuffer.append(contentsOf: chunk[0..<n])
                    while let newline = lineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: lineBuffer[..<newline], as: UTF8.self)
                        lineBuffer.removeSubrange(...newline)
                        if onLine(line) { deadline = now() + timeout }
                    }
                }
            }
            if fds[1].revents != 0 {
                let n = read(err[0], &chunk, chunk.count)
                if n <= 0 {
                    errOpen = false
                } else {
                    errTail.append(contentsOf: chunk[0..<n])
                    if errTail.count > 16384 { errTail.removeFirst(errTail.count - 16384) }
                }
            }
        }
        // Both pipes are closed; the child is exiting (or closed them and went on: the deadline still holds).
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { return Outcome(ending: .exited(-1), stderr: text(errTail)) }
            if now() >= deadline { return killed(pid, after: timeout, stderr: errTail) }
            _ = poll(nil, 0, 5)
        }
        return Outcome(ending: ending(status), stderr: text(errTail))
    }

    /// Runs `arguments[0]` with `arguments` on this process's stdin and its own stdout and stderr
    /// (`spawnInheritingOutput`) and waits for it (`Running.wait`).
    package static func runInheritingOutput(
        _ arguments: [String], passing: [Int32: Int32] = [:], interval: Double = 0.25,
        stderrTail: StderrTail? = nil, isStuck: () -> Double?
    ) throws(Failure) -> Ending {
        try spawnInheritingOutput(arguments, passing: passing, pipingStderr: stderrTail != nil)
            .wait(interval: interval, stderrTail: stderrTail, isStuck: isStuck)
    }

    /// Starts `arguments[0]` with `arguments` on this process's stdin and its own stdout and stderr
    /// (HostOutput's, whatever a plugin did to descriptors 1 and 2), with each descriptor of `passing`
    /// (close-on-exec here) given to the child as the number it maps to, and no other descriptor. With
    /// `pipingStderr`, the child's stderr is a pipe that `Running.wait` reads (where the kernel has
    /// pidfd_open; otherwise the child writes to this process's stderr directly).
    package static func spawnInheritingOutput(
        _ arguments: [String], passing: [Int32: Int32] = [:], pipingStderr: Bool
    ) throws(Failure) -> Running {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let errPipe = makeStderrPipe(pipingStderr)
        for (output, number) in [(HostOutput.standardOutput, Int32(1)), (HostOutput.standardError, 2)] {
            if number == 2 && errPipe.write >= 0 {
                posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
                continue
            }
            // Closed when this process was started without it, so that the child fails to write as this one would.
            // (posix_spawn fails on closing a descriptor that is not open, so only an open one is closed.)
            if output.descriptor >= 0 {
                posix_spawn_file_actions_adddup2(&actions, output.descriptor, number)
            } else if fcntl(number, F_GETFD) != -1 {
                posix_spawn_file_actions_addclose(&actions, number)
            }
        }
        for (descriptor, number) in passing { posix_spawn_file_actions_adddup2(&actions, descriptor, number) }
        // Everything else is closed in the child, close-on-exec or not: a descriptor another thread opened
        // without O_CLOEXEC (a server's listening and client sockets) never reaches it.
        floor_spawn_close_from(&actions, max(3, (passing.values.max() ?? 2) + 1))
        var pid: pid_t = 0
        let spawned = spawn(&pid, arguments, actions: &actions)
        if errPipe.write >= 0 { close(errPipe.write) }
        guard spawned == 0 else {
            if errPipe.read >= 0 { close(errPipe.read) }
            throw Failure(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return Running(pid: pid, stderrPipe: errPipe.read)
    }

    /// The pipe a child's stderr goes through (both ends close-on-exec), only where `Running.wait` can
    /// read it while it waits (pidfd_open works here) and this process has a stderr; (-1, -1) otherwise.
    static func makeStderrPipe(_ wanted: Bool) -> (read: Int32, write: Int32) {
        guard wanted, HostOutput.standardError.descriptor >= 0 else { return (-1, -1) }
        let probe = floor_pidfd_open(getpid())
        guard probe >= 0 else { return (-1, -1) }
        close(probe)
        var ends: [Int32] = [-1, -1]
        return floor_pipe_cloexec(&ends) == 0 ? (ends[0], ends[1]) : (-1, -1)
    }

    /// A child started with this process's stdout and stderr (`spawnInheritingOutput`,
    /// `forkInheritingOutput`), running: its id and the read end of its stderr pipe (-1 without one).
    package struct Running {
        package let pid: pid_t
        let stderrPipe: Int32

        /// Waits for the child, asking `isStuck` every `interval` seconds meanwhile: when it answers a
        /// number of seconds, the child is killed (SIGKILL) and the ending is `.timedOut(seconds:)` with
        /// that number. (Where the kernel has no pidfd_open, the wait is plain and `isStuck` is never
        /// asked.) Every byte the child writes to its stderr pipe is written on to this process's stderr at
        /// once, and the end of it is kept in `stderrTail`. Call it once: it closes the pipe.
        /// With `finished` (asked only where the wait has an exit watch, as `isStuck` is): when the child's stderr
        /// ends (every copy of it closed), a status `finished` then answers is the ending, and the child is left to
        /// end on its own (once this process has ended, whoever adopts it reaps it: init, or a measuring subreaper).
        package func wait(
            interval: Double = 0.25, stderrTail: StderrTail?, isStuck: () -> Double?, finished: () -> Int32? = { nil }
        ) -> Ending {
            defer { if stderrPipe >= 0 { close(stderrPipe) } }
            var chunk = [UInt8](repeating: 0, count: 16384)
            /// Passes on what the child wrote to stderr and keeps its end; false at end of file.
            func forwardStderr() -> Bool {
                let n = read(stderrPipe, &chunk, chunk.count)
                if n < 0 && (errno == EINTR || errno == EAGAIN) { return true }
                guard n > 0 else { return false }
                stderrTail?.append(chunk[0..<n])
                try? HostOutput.standardError.write(chunk[0..<n])
                return true
            }
            let exitWatch = floor_pidfd_open(pid)
            if exitWatch >= 0 {
                defer { close(exitWatch) }
                var errOpen = stderrPipe >= 0
                var lastAsked = now()
                while true {
                    var watch = [
                        pollfd(fd: exitWatch, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: errOpen ? stderrPipe : -1, events: Int16(POLLIN), revents: 0),
                    ]
                    let ready = poll(&watch, 2, Int32(interval * 1000))
                    if ready > 0 && watch[1].revents != 0 {
                        errOpen = forwardStderr()
                        if !errOpen, let status = finished() { return .exited(status) }
                    }
                    if ready > 0 && watch[0].revents != 0 {
                        // The child ended: take what is left in the pipe without waiting for writers it left behind.
                        if errOpen {
                            _ = fcntl(stderrPipe, F_SETFL, fcntl(stderrPipe, F_GETFL) | O_NONBLOCK)
                            while true {
                                let n = read(stderrPipe, &chunk, chunk.count)
                                if n < 0 && errno == EINTR { continue }
                                guard n > 0 else { break }
                                stderrTail?.append(chunk[0..<n])
                                try? HostOutput.standardError.write(chunk[0..<n])
                            }
                        }
                        break
                    }
                    if ready < 0 && errno != EINTR { break }
                    // A child that writes to stderr without pause is still asked about every `interval`.
                    if ready > 0 && now() - lastAsked < interval { continue }
                    lastAsked = now()
                    if let seconds = isStuck() {
                        kill(pid, SIGKILL)
                        var status: Int32 = 0
                        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                        return .timedOut(seconds: seconds)
                    }
                }
            }
            // No exit watch: read the pipe to its end (the child's exit closes it) so the child never blocks on it.
            if exitWatch < 0 && stderrPipe >= 0 { while forwardStderr() {} }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { return .exited(-1) }
            }
            return ending(status)
        }
    }

    /// A pipe whose two ends are close-on-exec (a child gets an end only through `start`'s descriptors).
    public static func pipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard floor_pipe_cloexec(&ends) == 0 else {
            throw Failure(message: "cannot create a pipe for a child process: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    /// Starts `arguments[0]` with `arguments`, stdin and stdout on the descriptors given, stderr on this
    /// process's own (HostOutput's) and each descriptor of `passing` given as the number it maps to (from
    /// 3 up, one after another; no other descriptor is open in the child), and returns at once with its process id: for a long-lived child that talks to this process (serve's
    /// worker). The caller reaps it with `waitForEnd`.
    public static func start(
        _ arguments: [String], standardInput: Int32, standardOutput: Int32,
        passing: [Int32: Int32] = [:]
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        if HostOutput.standardError.descriptor >= 0 {
            posix_spawn_file_actions_adddup2(&actions, HostOutput.standardError.descriptor, 2)
        }
        for (descriptor, number) in passing { posix_spawn_file_actions_adddup2(&actions, descriptor, number) }
        // Everything else is closed in the child, close-on-exec or not: a descriptor another thread opened
        // without O_CLOEXEC (a server's listening and client sockets) never reaches it.
        floor_spawn_close_from(&actions, max(3, (passing.values.max() ?? 2) + 1))
        var pid: pid_t = 0
        let spawned = spawn(&pid, arguments, actions: &actions)
        guard spawned == 0 else {
            throw Failure(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for a child `start` started and says how it ended.
    public static func waitForEnd(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        return ending(status)
    }

    /// posix_spawn with default signal dispositions, nothing blocked, and SWIFT_BACKTRACE=enable=no.
    private static func spawn(
        _ pid: inout pid_t, _ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal dispositions and nothing blocked, whatever the parent set.
        var defaults = sigset_t()
        var empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[parentVariable] = String(getpid())
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // From the spawning thread, so the child's death signal is tied to this process, not to the thread
        // that asked (SpawningThread).
        var child: pid_t = 0
        let status = SpawningThread.shared.run { posix_spawn(&child, arguments[0], actions, &attributes, argv, envp) }
        pid = child
        return status
    }

    package static let parentVariable = "FLOORHOST_PARENT_PID"

    /// In a child this process started (FLOORHOST_PARENT_PID set): asks the kernel to kill this process
    /// when its parent ends, and ends it now when the parent is already gone. A parent killed while a
    /// plugin hangs in its child thus never leaves that child running. Call it first thing in `main`.
    public static func dieWithParent() {
        guard let parent = ProcessEnvironment.value(parentVariable).flatMap({ pid_t($0) }) else { return }
        _ = floor_die_with_parent()
        // The parent may have ended before the request above: then this process has been handed to another.
        if getppid() != parent { _exit(128 + SIGKILL) }
    }

    /// WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import (they are macros).
    static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        if signal != 0 && signal != 0x7f { return .signaled(signal) }
        return .exited((status >> 8) & 0xff)
    }

    private static func killed(_ pid: pid_t, after seconds: Double, stderr: [UInt8]) -> Outcome {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Outcome(ending: .timedOut(seconds: seconds), stderr: text(stderr))
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// "SIGSEGV" for 11, and so on; the number for signals without a common name.
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
            SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
            SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// Makes this process run `arguments` (program first) instead, keeping its id, environment and inherited
    /// descriptors (view's restart, which only a fresh process can do). Returns only when that failed: why.
    package static func replaceProcess(with arguments: [String]) -> String {
        let argv = arguments.map { strdup($0) } + [nil]
        execv(arguments[0], argv)
        return String(cString: strerror(errno))
    }

    /// The last non-empty line of a child's stderr, for a one-line reason ("Fatal error: ...").
    package static func lastLine(_ stderr: String) -> String? {
        stderr.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }).map(String.init)
    }
}
