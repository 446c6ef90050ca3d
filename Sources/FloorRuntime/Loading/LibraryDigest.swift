import CLibCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The SHA-256 of a plugin library's bytes, as lowercase hex: what plugins.lock pins and what the scan
/// cache keys a library by, so that a file rewritten with its size and modification time kept is not
/// taken for the one that was reviewed or scanned. Computed by the system's libcrypto (EVP, CLibCrypto).
public enum LibraryDigest {
    /// Reads `path` in 1 MiB chunks (O_CLOEXEC, no whole-file copy); nil when it cannot be read.
    public static func sha256(ofFile path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            guard chunk.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, n) }) == 1 else { return nil }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { return nil }
        return digest.prefix(32).map { hex($0) }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
