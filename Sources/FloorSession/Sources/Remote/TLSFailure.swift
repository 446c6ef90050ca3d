import CSystemLibraries

#if canImport(Glibc)
import Glibc
#endif

/// Why an https load's TLS handshake failed, told as what a person can do about it, never as curl's or
/// OpenSSL's error text: a certificate no trusted CA signed, one issued for another host, or a server that
/// does not speak TLS (an https URL aimed at a plain http server). Threading: a value.
package enum TLSFailure {
    /// The chain does not lead to a trusted CA (self-signed, an unknown CA), or a certificate has expired.
    case untrusted
    /// The chain is trusted, but the certificate names other hosts than the URL's.
    case otherHost
    /// The server closed the connection during the handshake, as a plain http server does when it is sent
    /// a ClientHello (after its 400 Bad Request, which is not TLS).
    case closedDuringHandshake
    /// What came back is not TLS at all.
    case notTLS
    /// Another handshake failure: OpenSSL's reason, e.g. "tlsv1 alert protocol version".
    case handshake(String)

    /// The failure `failure` is, or nil when it is not a TLS one.
    package init?(_ failure: HTTPExchange.Failure) {
        switch failure.code {
        case CURLE_PEER_FAILED_VERIFICATION:
            // OpenSSL checks the chain during the handshake, which fails on a bad one ("SSL certificate problem:
            // unable to get local issuer certificate", its verdict kept as the verify result); curl checks the
            // host name after a handshake that succeeded, on a chain found good ("SSL: no alternative
            // certificate subject name matches target host name '127.0.0.1'").
            let chainFailed = failure.detail.hasPrefix("SSL certificate problem")
            self = !chainFailed && failure.detail.contains("host name") ? .otherHost : .untrusted
        case CURLE_SSL_CONNECT_ERROR:
            let detail = failure.detail.lowercased()
            if ["wrong version number", "packet length too long", "http request", "unexpected record"].contains(
                where: detail.contains)
            {
                self = .notTLS
            } else if failure.osErrno == ECONNRESET {
                // A reset is the connection's failure, not the handshake's: RemotePageClient says so.
                return nil
            } else if detail.contains("ssl_error_syscall") || detail.contains("unexpected eof") {
                self = .closedDuringHandshake
            } else {
                self = .handshake(Self.reason(failure.detail))
            }
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            self = .handshake(Self.reason(failure.detail))
        default:
            return nil
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

    /// "tlsv1 alert protocol version" of "OpenSSL/3.0.19: error:0A00042E:SSL routines::tlsv1 alert protocol
    /// version", the form curl gives OpenSSL's errors in: the reason after the last "::", or all of it.
    private static func reason(_ detail: String) -> String {
        let bytes = Array(detail.utf8)
        guard let colons = bytes.indices.dropLast().last(where: { bytes[$0] == 0x3A && bytes[$0 + 1] == 0x3A }) else {
            return detail
        }
        return String(decoding: bytes[(colons + 2)...], as: UTF8.self)
    }
}

extension TLSFailure: Equatable {}
