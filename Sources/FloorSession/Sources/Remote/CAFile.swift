import CSystemLibraries

#if canImport(Glibc)
import Glibc
#endif

/// The CA certificates of a PEM file (`--ca-file`) under which https pages are trusted in addition to the
/// system's CAs: a staging CMS whose certificate a private CA signed. The file is read and parsed when the
/// value is made, so that a missing, unreadable or non-PEM file is refused before any page is requested,
/// saying what was expected, and not as a TLS failure of the first https page.
/// Threading: a value; any thread.
public struct CAFile: Sendable {
    /// A file that cannot be used: `reason` says why and what is expected, without the file's name (the CLI's
    /// option parser names it); `message` names it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var message: String { "\(file): \(reason)" }
        public var description: String { message }
    }

    /// At most this many bytes are read: the system's whole CA bundle is about 200 KiB.
    public static let maxBytes = 4 << 20

    /// The file as given: what a child process (a share of `check`, the serve worker) is given again.
    public let path: String
    /// The certificates the file holds, at least one.
    public let certificateCount: Int
    /// The file's bytes, read once, every certificate in them readable: what an https load trusts besides
    /// the system's CAs (HTTPExchange), never the file read again after it was checked.
    package let pem: [UInt8]

    /// `--ca-file`'s value, read and parsed now: a file that cannot be used is a usage error, the option
    /// parser naming the file, before any page is requested.
    package static func parse(_ argument: String) throws -> CAFile {
        do {
            return try CAFile(path: argument)
        } catch {
            throw ArgumentFormError("\(error.reason), e.g. --ca-file staging-ca.pem")
        }
    }

    public init(path: String) throws(Failure) {
        let expected = "expected a PEM file of the CA certificates to trust (-----BEGIN CERTIFICATE----- blocks)"
        func refuse(_ why: String) -> Failure { Failure(file: path, reason: "\(why); \(expected)") }
        let bytes: [UInt8]
        switch Self.read(path) {
        case .success(let read): bytes = read
        case .failure(let why): throw refuse(why.text)
        }
        if bytes.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) { throw refuse("the file is empty") }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") || text.contains("-----BEGIN TRUSTED CERTIFICATE-----")
        else {
            if text.contains("-----BEGIN ") {
                throw refuse("the file is PEM but holds no certificate (a key or a request?)")
            }
            throw refuse(
                "the file is not PEM (if it is a DER certificate: openssl x509 -inform der -in \(path) -out ca.pem)")
        }
        guard let count = Self.certificates(in: bytes) else {
            throw refuse("a -----BEGIN CERTIFICATE----- block in the file is not a certificate that can be read")
        }
        self.path = path
        certificateCount = count
        pem = bytes
    }

    /// How many certificates the PEM `bytes` hold, read with the system's libcrypto (as the TLS that trusts
    /// them will), or nil when a certificate block cannot be read. Blocks of other kinds (a key) are skipped.
    private static func certificates(in bytes: [UInt8]) -> Int? {
        let count = bytes.withUnsafeBytes { floor_pem_certificate_count($0.baseAddress, $0.count) }
        return count > 0 ? Int(count) : nil
    }

    private struct ReadFailure: Error { let text: String }

    /// The file's bytes (at most maxBytes), or why not.
    private static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        func errnoText(_ code: Int32) -> String {
            switch code {
            case ENOENT: return "no such file"
            case EACCES: return "cannot read the file: permission denied"
            case EISDIR: return "is a folder, not a file"
            default: return "cannot read the file: \(String(cString: strerror(code)))"
            }
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(text: errnoText(errno))) }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return .failure(ReadFailure(text: errnoText(EISDIR)))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= maxBytes {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(text: errnoText(errno)))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[..<n]
        }
        return .failure(ReadFailure(text: "the file is larger than \(maxBytes >> 20) MiB"))
    }
}
