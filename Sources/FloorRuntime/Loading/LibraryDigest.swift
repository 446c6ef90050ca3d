import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The SHA-256 of a plugin library's bytes, as lowercase hex: what plugins.lock pins and what the scan
/// cache keys a library by, so that a file rewritten with its size and modification time kept is not
/// taken for the one that was reviewed or scanned.
public enum LibraryDigest {
    /// Reads `path` in 1 MiB chunks (O_CLOEXEC, no whole-file copy); nil when it cannot be read.
    public static func sha256(ofFile path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var hasher = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            chunk.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
