import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The child side of a ChildProcess: lines for the parent, written to the process's original stdout
/// unbuffered with write(2), so that every line sent before a crash arrives. Creating it points fd 1 at
/// stderr, so anything plugin code prints lands in the parent's stderr capture instead of the protocol.
/// Create one per process, before any plugin code runs.
final class ParentChannel: @unchecked Sendable {
    private let fd: Int32

    init() {
        fd = dup(1)
        dup2(2, 1)
    }

    /// Sends `line` (which must not contain a newline) and a newline.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            written += n
        }
    }
}
