import Foundation
import Testing

/// A throwaway certificate authority for the https tests, made with the `openssl` command in `folder` when the
/// test runs (nothing secret is committed, and nothing outlives the folder): its certificate, `ca.pem`, is
/// what `--ca-file` is given, and it issues server certificates for the names a test chooses.
struct TestCA {
    let folder: TemporaryFolder
    let name: String
    /// The CA's certificate (PEM).
    let certificate: String
    private let key: String

    init(in folder: TemporaryFolder, name: String = "ca") throws {
        self.folder = folder
        self.name = name
        certificate = folder.file("\(name).pem")
        key = folder.file("\(name).key")
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=FloorKit test CA \(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// A server certificate this CA signs for `names` (subjectAltName entries, e.g. "IP:127.0.0.1",
    /// "DNS:localhost"): the certificate and key files, as `PageServer(serving:tls:)` takes them.
    func issue(_ file: String, for names: [String]) throws -> (certificate: String, key: String) {
        let certificate = folder.file("\(file).pem")
        let key = folder.file("\(file).key")
        let request = folder.file("\(file).csr")
        let extensions = try folder.write(
            "\(file).ext",
            "subjectAltName=\(names.joined(separator: ","))\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
        try Self.openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", request, "-subj", "/CN=\(names[0].split(separator: ":").last ?? "")",
        ])
        try Self.openssl([
            "x509", "-req", "-in", request, "-CA", self.certificate, "-CAkey", self.key, "-CAcreateserial",
            "-out", certificate, "-days", "2", "-extfile", extensions,
        ])
        return (certificate, key)
    }

    struct OpenSSLFailed: Error, CustomStringConvertible { let description: String }

    private static func openssl(_ arguments: [String]) throws {
        let result = try run("/usr/bin/env", ["openssl"] + arguments)
        guard result.status == 0 else {
            throw OpenSSLFailed(
                description:
                    "openssl \(arguments.prefix(2).joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
    }
}
