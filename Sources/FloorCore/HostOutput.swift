import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The process's own standard output and error, out of plugin code's reach. `claim()` (first thing in
/// `main`) keeps private duplicates of descriptors 1 and 2, so a plugin that closes or reopens descriptor
/// 1 or 2 no longer touches what floorhost writes; `shieldFromPlugins()` (just before plugins load) points
/// descriptor 1 at the error stream, so whatever plugin code prints lands on stderr instead of in a page's
/// json or a child's protocol. Every write floorhost makes after that goes through `standardOutput` or
/// `standardError` (until then, `--help` and usage errors are printed the ordinary way).
/// Threading: `write` may be called from any thread; a line is written with as few write(2) calls as the
/// kernel allows, so lines from two threads may interleave only at those boundaries.
public struct HostOutput: Sendable {
    public let descriptor: Int32
    /// "the output", "stderr": what a failed write names.
    package let name: String

    public struct Failure: Error, Sendable {
        public let message: String
    }

    public static let standardOutput = HostOutput(claiming: 1, name: "the output")
    public static let standardError = HostOutput(claiming: 2, name: "stderr")

    /// Writes to a duplicate of `descriptor`, made now (the caller may close its own).
    package init(claiming descriptor: Int32, name: String) {
        // A descriptor that is not open (`floorhost >&-`) stays -1: every write then fails with EBADF.
        self.descriptor = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        self.name = name
    }

    /// Keeps private copies of descriptors 1 and 2. Idempotent; call it before any plugin code can run.
    public static func claim() {
        _ = standardOutput
        _ = standardError
        // A standard descriptor the process was started without would be handed to the next file opened
        // (a crash record, a plugin's file) and written to as output: hold it with /dev/null instead. The
        // claimed copy stays -1, so floorhost's own writes still fail and say so.
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    private static let shielded: Void = {
        claim()
        dup2(2, 1)
    }()

    /// Claims the descriptors and points descriptor 1 at stderr. Idempotent; call it before plugins load.
    public static func shieldFromPlugins() { shielded }

    /// For a process that has written everything and only exits next (a supervised child, whose supervisor takes
    /// the end of its stderr as the end of it: PageSupervisor): descriptors 1 and 2 and the process's own copies
    /// are pointed at /dev/null, so that whatever reads its output or stderr sees their end now, not once the
    /// kernel has freed its memory. The descriptors stay open: a write after this is lost, never sent elsewhere.
    public static func handBackForExit() {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return }
        for fd in [standardOutput.descriptor, standardError.descriptor, 1, 2] where fd >= 0 {
            _ = dup2(null, fd)
            if fd > 2 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        close(null)
    }

    /// Writes all of `bytes`, retrying short and interrupted writes.
    public func write(_ bytes: some Collection<UInt8>) throws(Failure) {
        try check(
            bytes.withContiguousStorageIfAvailable { Self.writeAll(descriptor, $0) }
                ?? Array(bytes).withUnsafeBufferPointer { Self.writeAll(descriptor, $0) })
    }

    public func write(_ text: String) throws(Failure) { try write(Array(text.utf8)) }

    /// The most pieces one writev(2) takes: IOV_MAX on Linux (UIO_MAXIOV), which Swift's Glibc does not export.
    public static let piecesAWrite = 1024

    /// Writes all the bytes the pieces of `batch` point at, in order, a write(2) of many pieces at a time
    /// (writev), retrying short and interrupted writes; `batch` is used up doing so.
    public func write(gathering batch: inout [iovec]) throws(Failure) {
        try check(batch.withUnsafeMutableBufferPointer { Self.writeAll(descriptor, pieces: $0) })
    }

    /// Throws for the errno of a write that failed.
    private func check(_ failure: Int32?) throws(Failure) {
        if let failure { throw Failure(message: "cannot write \(name): \(String(cString: strerror(failure)))") }
    }

    /// The errno of the write that failed, nil when everything was written: `buffer` as one piece.
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
        var piece = iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count)
        return withUnsafeMutablePointer(to: &piece) {
            writeAll(fd, pieces: UnsafeMutableBufferPointer(start: $0, count: 1))
        }
    }

    /// The errno of the write that failed, nil when everything was written; `pieces` is used up doing so.
    private static func writeAll(_ fd: Int32, pieces: UnsafeMutableBufferPointer<iovec>) -> Int32? {
        var first = 0
        while first < pieces.count {
            if pieces[first].iov_len == 0 {
                first += 1
                continue
            }
            let n = writev(fd, pieces.baseAddress! + first, Int32(min(pieces.count - first, piecesAWrite)))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return EIO }
            // Past the pieces written whole, into the one written in part.
            var left = n
            while first < pieces.count && left >= pieces[first].iov_len {
                left -= pieces[first].iov_len
                first += 1
            }
            if left > 0 {
                pieces[first].iov_base = pieces[first].iov_base.map { $0 + left }
                pieces[first].iov_len -= left
            }
        }
        return nil
    }

    /// Whether this stream is a terminal (the original descriptor, not what plugins see as 1).
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}
