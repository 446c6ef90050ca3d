import CGlibcExtras
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The terminal `floorhost view` runs in. `enter()` switches it to raw mode (keys arrive as bytes, nothing
/// echoed), the alternate screen, a hidden cursor and mouse wheel reports; `restore()` puts all of it back.
/// So does a crash, SIGTERM or SIGHUP while the view is on (a handler restores the terminal, then the
/// signal takes its default course), so a person is never left in a broken terminal.
/// SIGWINCH (a resize) becomes a byte on `resizes`, for the view's poll loop.
/// Threading: the main thread; one RawTerminal per process.
public final class RawTerminal {
    public struct Failure: Error, Sendable { public let message: String }

    package let input: Int32 = 0
    package let output = HostOutput.standardOutput
    private var original = termios()
    private var entered = false
    /// Readable when the terminal was resized (one byte per SIGWINCH).
    public let resizes: Int32

    /// Refuses when stdin or stdout is not a terminal (`floorhost view | less`, a script, CI).
    public init() throws(Failure) {
        guard isatty(input) == 1, output.isTerminal else {
            throw Failure(
                message:
                    "floorhost view needs a terminal on stdin and stdout; for text output use `floorhost PAGE` (the text preview), for machines `floorhost PAGE --format json`"
            )
        }
        guard tcgetattr(input, &original) == 0 else {
            throw Failure(message: "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        var ends: [Int32] = [-1, -1]
        guard floor_pipe_cloexec(&ends) == 0 else {
            throw Failure(message: "cannot create a pipe for resize signals: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        resizes = ends[0]
        resizeSignalPipe = ends[1]
    }

    /// The terminal's size in columns and lines (80x24 when it does not say).
    public var size: (columns: Int, lines: Int) {
        var columns: UInt16 = 0
        var lines: UInt16 = 0
        guard floor_terminal_size(output.descriptor, &columns, &lines) == 0, columns > 0, lines > 0 else {
            return (80, 24)
        }
        return (Int(columns), Int(lines))
    }

    public func enter() {
        var raw = original
        // cfmakeraw, except that output post-processing stays on (so "\n" still returns the carriage).
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        _ = tcsetattr(input, TCSAFLUSH, &raw)
        savedTerminal = (input, output.descriptor, original)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            installHandler(signal, restoreAndRaise)
        }
        installHandler(SIGWINCH, noteResize)
        try? output.write(Self.enterSequence)
        entered = true
    }

    /// Puts the terminal back as it was before `enter()`. Idempotent.
    public func restore() {
        guard entered else { return }
        entered = false
        try? output.write(Self.leaveSequence)
        var original = original
        _ = tcsetattr(input, TCSAFLUSH, &original)
        savedTerminal = nil
        for signal in [
            SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH,
        ] {
            Glibc.signal(signal, SIG_DFL)
        }
    }

    /// Alternate screen, cursor hidden, mouse button and wheel reports in SGR form.
    package static let enterSequence = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[?1000h\u{1b}[?1006h\u{1b}[H\u{1b}[2J"
    package static let leaveSequence = "\u{1b}[?1006l\u{1b}[?1000l\u{1b}[?25h\u{1b}[?1049l"
}

// What a signal handler needs, in globals: a handler can capture nothing. Written only on the main thread
// while no handler is installed for them.
nonisolated(unsafe) private var savedTerminal: (input: Int32, output: Int32, settings: termios)?
nonisolated(unsafe) private var resizeSignalPipe: Int32 = -1
private let leaveBytes: [UInt8] = Array(RawTerminal.leaveSequence.utf8)

private func installHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(signal, &action, nil)
}

/// Async-signal-safe: write(2), tcsetattr(3), signal(2) and raise(3) only.
private func restoreAndRaise(_ signal: Int32) {
    if var saved = savedTerminal {
        leaveBytes.withUnsafeBufferPointer { _ = write(saved.output, $0.baseAddress, $0.count) }
        _ = tcsetattr(saved.input, TCSAFLUSH, &saved.settings)
    }
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}

private func noteResize(_ signal: Int32) {
    var byte: UInt8 = 1
    _ = write(resizeSignalPipe, &byte, 1)
}
