import NIOSSL

/// Why an https load's TLS handshake failed, told as what a person can do about it, never as NIOSSL's error
/// value: a certificate no trusted CA signed, one issued for another host, or a server that does not speak
/// TLS (an https URL aimed at a plain http server). Threading: a value.
package enum TLSFailure {
    /// The chain does not lead to a trusted CA (self-signed, an unknown CA), or a certificate has expired:
    /// BoringSSL says only that verification failed.
    case untrusted
    /// The chain is trusted, but the certificate names other hosts than the URL's.
    case otherHost
    /// The server closed the connection during the handshake, as a plain http server does when it is sent
    /// a ClientHello (after its 400 Bad Request, which is not TLS).
    case closedDuringHandshake
    /// What came back is not TLS at all.
    case notTLS
    /// Another handshake failure: BoringSSL's reason, e.g. "tlsv1 alert protocol version".
    case handshake(String)

    /// The failure `error` is, or nil when it is not a TLS one.
    package init?(_ error: any Error) {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            self = .otherHost
            return
        }
        guard let error = error as? NIOSSLError, case .handshakeFailed(let boring) = error else { return nil }
        let stack: NIOBoringSSLErrorStack
        switch boring {
        case .sslError(let errors), .unknownError(let errors): stack = errors
        default:
            self = .handshake(String(describing: boring))
            return
        }
        if stack.contains(.eofDuringHandshake) {
            self = .closedDuringHandshake
            return
        }
        let reasons = stack.map { Self.reasonCode($0.description) }
        if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
            self = .untrusted
        } else if reasons.contains(where: {
            ["WRONG_VERSION_NUMBER", "PACKET_LENGTH_TOO_LONG", "HTTP_REQUEST", "UNEXPECTED_RECORD"].contains($0)
        }) {
            self = .notTLS
        } else {
            self = .handshake(
                reasons.last.map { $0.lowercased().replacingOccurrences(of: "_", with: " ") } ?? "no reason given")
        }
    }

    /// Trying again helps only where the server may have dropped the connection for a passing reason.
    package var retryable: Bool { self == .closedDuringHandshake }

    /// The reason, for a load of `host` at `place` (host:port), trusting the system's CAs and `caFile`'s.
    package func reason(host: String, place: String, caFile: CAFile?) -> String {
        let plainHTTP = "is it a plain http server? Then the page's URL starts with http://, not https://"
        switch self {
        case .untrusted:
            guard let caFile else {
                return
                    "the certificate of \(place) is not trusted (self-signed, signed by an unknown CA, or expired); if a private CA signed it, as a staging CMS's often is, pass --ca-file with that CA's certificate (PEM)"
            }
            return
                "the certificate of \(place) is not trusted by the system's CAs nor by --ca-file \(caFile.path) (self-signed, signed by another CA, or expired); pass --ca-file with the CA that signed it"
        case .otherHost:
            return
                "the certificate of \(place) is for other host names, not \(host); use a host name it was issued for in the URL, or give the server a certificate for \(host)"
        case .closedDuringHandshake:
            return "the server at \(place) closed the connection during the TLS handshake: \(plainHTTP)"
        case .notTLS:
            return "the server at \(place) does not answer in TLS: \(plainHTTP)"
        case .handshake(let why):
            return "the TLS handshake with \(place) failed (\(why))"
        }
    }

    /// "CERTIFICATE_VERIFY_FAILED" of "Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:
    /// CERTIFICATE_VERIFY_FAILED at handshake.cc:320", the form BoringSSL's error strings take.
    private static func reasonCode(_ description: String) -> String {
        guard let marker = description.range(of: "OPENSSL_internal:") else { return description }
        let rest = description[marker.upperBound...]
        return String(rest.prefix { $0 != " " && $0 != ":" })
    }
}

extension TLSFailure: Equatable {}
