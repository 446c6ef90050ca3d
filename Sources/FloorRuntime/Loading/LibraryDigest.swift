import CSystemLibraries

#if canImport(Glibc)
import Glibc
#endif

/// The SHA-256 of a plugin library's bytes, as lowercase hex: what plugins.lock pins and what the scan
/// cache keys a library by, so that a file rewritten with its size and modification time kept is not
/// taken for the one that was reviewed or scanned. Computed by the system's libcrypto (EVP), loaded when first needed (CSystemLibraries).
public enum LibraryDigest {
    /// Reads `path` in 1 MiB chunks (O_CLOEXEC, no whole-file copy); nil when it cannot be read.
    public static func sha256(ofFile path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var digest = [UInt8](repeating: 0, count: 32)
        guard floor_sha256_fd(fd, &digest) == 0 else { return nil }
        return digest.map { hex($0) }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
