import CGlibcExtras
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A child that is this process forked, without an exec: it runs the command as a spawned child given its
/// arguments would (FloorCommandLine's `superviseUnlessChild`), on a thread of its own
/// (`continueForkedChild`), where a spawned child would start afresh (for floorhost, ~12 ms: mapping 33
/// shared libraries, the runtime's start). It is
/// given what `spawnInheritingOutput` gives a spawned child (ChildProcess.swift):
/// - stdin as this process has it; stdout on HostOutput's stdout; stderr on the pipe `Running.wait`
///   reads (or on HostOutput's stderr without one); HostOutput's private copies pointed at the child's
///   own 1 and 2, as a spawned child's `HostOutput.claim()` makes them;
/// - the descriptors it is handed, at their own numbers and no longer close-on-exec (as a descriptor a
///   spawn hands down by dup2 is not); every other descriptor is closed, close-on-exec or not;
/// - every signal's default disposition and nothing blocked: a crash ends the child by its signal, and the
///   runtime's backtracer, whose handlers this process installed at its start, never runs in it
///   (a spawned child gets SWIFT_BACKTRACE=enable=no for the same end);
/// - death with this process (PR_SET_PDEATHSIG, tied to the forking thread, which for a command is the
///   main thread and lives as long as the process), and SWIFT_BACKTRACE=enable=no and FLOORHOST_PARENT_PID
///   in its environment, as a spawned child has them, for whatever it execs or spawns in turn.
///
/// Fork is safe only in a process of one thread: another thread's lock (malloc's, the runtime's,
/// Foundation's) held at the fork would stay held for ever in the child. A caller asks `isSingleThreaded`
/// right before (ChildLaunch does, at every attempt) and spawns otherwise.
extension ChildProcess {
    /// Whether this process runs one thread, now (the thread count in /proc/self/stat, field 20).
    package static var isSingleThreaded: Bool {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the fields are counted after
        // the last ')'; the first after it is field 3 (state), so the thread count is the 18th.
        var bytes = [UInt8](repeating: 0, count: 1024)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0, let comm = bytes[..<n].lastIndex(of: UInt8(ascii: ")")) else { return false }
        let fields = bytes[(comm + 1)..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 17 else { return false }
        return String(decoding: fields[17], as: UTF8.self) == "1"
    }

    /// Forks this process into a child that writes to this process's stdout and stderr (stderr through a
    /// pipe with `pipingStderr`, as `spawnInheritingOutput`) and keeps the descriptors in `keeping` (and
    /// no others beyond 0, 1, 2 and HostOutput's copies of them). In this process, returns the child,
    /// running; in the child, nil. Call it only when `isSingleThreaded`. Buffered stdio output is flushed
    /// first, so that the child's exit cannot write this process's bytes a second time.
    package static func forkInheritingOutput(keeping: [Int32], pipingStderr: Bool) throws(Failure) -> Running? {
        let errPipe = makeStderrPipe(pipingStderr)
        fflush(nil)
        let parent = getpid()
        let pid = fork()
        if pid < 0 {
            let reason = String(cString: strerror(errno))
            for end in [errPipe.read, errPipe.write] where end >= 0 { close(end) }
            throw Failure(message: "cannot start a child process (fork): \(reason)")
        }
        if pid > 0 {
            if errPipe.write >= 0 { close(errPipe.write) }
            return Running(pid: pid, stderrPipe: errPipe.read)
        }
        becomeChild(of: parent, stderr: errPipe.write, keeping: keeping)
        return nil
    }

    /// The forked child's side: signals, descriptors, death with `parent`, environment (see above).
    private static func becomeChild(of parent: pid_t, stderr: Int32, keeping: [Int32]) {
        // Signals first, so that anything failing from here on ends the child as a spawned one would end.
        var nothing = sigset_t()
        sigemptyset(&nothing)
        sigprocmask(SIG_SETMASK, &nothing, nil)
        // Linux's signals are 1 to 64; SIGKILL, SIGSTOP and glibc's own two refuse, which changes nothing.
        for signal in Int32(1)...64 { _ = Glibc.signal(signal, SIG_DFL) }

        let output = HostOutput.standardOutput.descriptor
        let error = HostOutput.standardError.descriptor
        if output >= 0 { dup2(output, 1) }
        if stderr >= 0 {
            dup2(stderr, 2)
        } else if error >= 0 {
            dup2(error, 2)
        }
        // HostOutput's copies now name the child's own 1 and 2 (so its messages go through the pipe).
        // Where this process was started without one, its copy is -1 and descriptor 1 or 2 is /dev/null,
        // as HostOutput.claim() left it here and would leave it in a spawned child.
        for (copy, standard) in [(output, Int32(1)), (error, 2)] where copy >= 0 {
            dup2(standard, copy)
            _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        }
        for descriptor in keeping { _ = fcntl(descriptor, F_SETFD, 0) }
        closeAll(except: Set([0, 1, 2, output, error] + keeping))

        _ = floor_die_with_parent()
        // The parent may have ended before the request above: then this process has been handed to another.
        if getppid() != parent { _exit(128 + SIGKILL) }
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        setenv(parentVariable, String(parent), 1)
    }

    /// In a forked child: runs `command` on a new thread and parks this one for good (`command` ends the
    /// process). Once the child has a second thread, the one that forked must run no Swift: the Swift
    /// runtime on Linux keeps each thread's id for its locks (swift_once's, a priority-inheriting futex that
    /// names its owner) in a thread-local cache, which the child's one thread inherits holding its parent's
    /// id; a lock it took would name a thread of another process, and the kernel refuses to hand such a lock
    /// over, so a lazy initializer this thread ran while one of the child's own threads (the page walk's, the
    /// plugin scan's) waited for it would hang both (seen: a render child stuck in `Thread.current`). A
    /// thread started in the child caches its own id. Where no thread can be started, `command` runs here.
    package static func continueForkedChild(_ command: @escaping () -> Never) -> Never {
        final class Command {
            let run: () -> Never
            init(_ run: @escaping () -> Never) { self.run = run }
        }
        let context = Unmanaged.passRetained(Command(command)).toOpaque()
        var thread = pthread_t()
        // The default attributes: a stack of RLIMIT_STACK's size (glibc), as this thread's may grow to.
        let started = pthread_create(
            &thread, nil, { context in Unmanaged<Command>.fromOpaque(context!).takeRetainedValue().run() }, context)
        guard started == 0 else { Unmanaged<Command>.fromOpaque(context).takeRetainedValue().run() }
        // Nothing of the runtime from here on: the new thread ends the process. Every signal is blocked here
        // (the new thread started with none blocked), so that a handler the command installs (view's, for
        // a resize) runs on one of its own threads, never on this one.
        var every = sigset_t()
        sigfillset(&every)
        pthread_sigmask(SIG_BLOCK, &every, nil)
        while true { pause() }
    }

    /// Closes every open descriptor but those in `kept` (negative numbers are ignored): close_range over
    /// the gaps between them, or one by one up to the descriptor limit where the kernel has no close_range.
    private static func closeAll(except kept: Set<Int32>) {
        func closeRange(_ first: Int32, _ last: Int32) {
            guard first <= last, floor_close_range(UInt32(first), UInt32(last)) != 0 else { return }
            let limit = min(Int(last), sysconf(Int32(_SC_OPEN_MAX)) - 1)
            if Int(first) <= limit { for descriptor in Int(first)...limit { close(Int32(descriptor)) } }
        }
        var next: Int32 = 0
        for descriptor in kept.sorted() where descriptor >= next {
            closeRange(next, descriptor - 1)
            next = descriptor + 1
        }
        closeRange(next, Int32.max)
    }
}
