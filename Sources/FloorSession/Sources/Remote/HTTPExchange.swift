import CSystemLibraries
import FloorCore
import FoundationEssentials

/// One GET with the system's libcurl, for RemotePageClient: the answer's status and headers, and its body up
/// to `maxBytes` for a 2xx, counted as it arrives (a Content-Length above the limit, or one byte more than
/// it, ends the transfer at once, so a huge or endless body costs no more than the limit), or up to 64 KiB
/// of anything else (an error page, a redirect's body: read so the connection can be kept, then dropped).
/// It follows no redirect (each hop is RemotePageClient's to judge), sends no Accept-Encoding and decodes
/// none, takes no proxy from the environment, and speaks http and https only. Nor does it send the request
/// again on its own: curl would, on a fresh connection, when a kept-alive one it reused failed before any
/// byte of the answer; that failure is the load's, and trying again is RetryPolicy's, seen as events. TLS always verifies the
/// server's certificate and its host name, against the system's CAs and a CAFile's.
/// Threading: `perform` blocks the calling thread for the whole transfer and needs no other thread (curl's
/// resolver has its own); one exchange is one transfer on one thread.
package struct HTTPExchange {
    package struct Answer: Sendable {
        package let status: Int
        package let phrase: String
        /// Header fields in the order they came, names lowercased.
        package let headers: [(name: String, value: String)]
        package let body: [UInt8]

        /// The first value of the header `name` (any case).
        package func header(_ name: String) -> String? {
            let name = name.lowercased()
            return headers.first { $0.name == name }?.value
        }
    }

    /// Why a transfer did not finish, in curl's words and the facts that tell the cases apart.
    package struct Failure: Error, Sendable {
        /// curl's result (CURLE_...).
        package let code: CURLcode
        /// The socket's errno when curl saw one (ECONNREFUSED, ECONNRESET...), else 0.
        package let osErrno: Int32
        /// curl's own sentence (its error buffer), e.g. "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong
        /// version number".
        package let detail: String
        /// Nil before the answer's head arrived; then the body's bytes so far and the length announced.
        package let received: (count: Int, expected: Int?)?
        /// The body was ended for passing `maxBytes`.
        package let tooLarge: Bool
    }

    package let url: String
    package let headers: [String]
    /// Milliseconds the transfer may take, connecting included.
    package let timeoutMilliseconds: Int
    package let maxBytes: Int
    /// PEM certificates trusted besides the system's (a CAFile's), or nil.
    package let extraTrust: [UInt8]?

    package func perform() -> Result<Answer, Failure> {
        if let unavailable = CurlHandles.shared.unavailable {
            return .failure(
                Failure(code: CURLE_FAILED_INIT, osErrno: 0, detail: unavailable, received: nil, tooLarge: false))
        }
        let result: Result<Answer, Failure>? = CurlHandles.shared.with { curl in
            let receiver = Receiver(maxBytes: maxBytes)
            let context = Unmanaged.passUnretained(receiver).toOpaque()
            var requestHeaders: UnsafeMutablePointer<curl_slist>?
            for header in headers { requestHeaders = floor_curl_slist_append(requestHeaders, header) }
            defer { floor_curl_slist_free_all(requestHeaders) }
            var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
                floor_curl_set_string(curl, CURLOPT_URL, url)
                floor_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
                floor_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                floor_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
                // No http_proxy/https_proxy from the environment: a page is asked of its own origin only.
                floor_curl_set_string(curl, CURLOPT_PROXY, "")
                // Signals are the process's (a plugin's crash containment, the view's SIGWINCH): curl uses
                // none, its threaded resolver keeping the time limit instead.
                floor_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
                floor_curl_set_long(curl, CURLOPT_TIMEOUT_MS, max(1, timeoutMilliseconds))
                floor_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, max(1, timeoutMilliseconds))
                floor_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
                floor_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
                floor_curl_set_slist(curl, CURLOPT_HTTPHEADER, requestHeaders)
                floor_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errors.baseAddress)
                floor_curl_set_data_callback(curl, CURLOPT_HEADERFUNCTION, Receiver.headerLine)
                floor_curl_set_pointer(curl, CURLOPT_HEADERDATA, context)
                floor_curl_set_data_callback(curl, CURLOPT_WRITEFUNCTION, Receiver.bodyPart)
                floor_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
                floor_curl_set_prereq_callback(curl, CURLOPT_PREREQFUNCTION, Receiver.requestReady)
                floor_curl_set_pointer(curl, CURLOPT_PREREQDATA, context)
                if let extra = extraTrust {
                    let bundle = Self.systemBundleWithoutPath + extra
                    return bundle.withUnsafeBytes { bytes in
                        var blob = curl_blob(
                            data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count,
                            flags: UInt32(CURL_BLOB_COPY))
                        floor_curl_set_blob(curl, CURLOPT_CAINFO_BLOB, &blob)
                        return floor_curl_easy_perform(curl)
                    }
                }
                return floor_curl_easy_perform(curl)
            }
            withExtendedLifetime(receiver) {}
            guard code == CURLE_OK, let head = receiver.head, !receiver.tooLarge else {
                var osErrno = 0
                floor_curl_get_long(curl, CURLINFO_OS_ERRNO, &osErrno)
                var written = String(
                    decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                var failed = code == CURLE_OK ? CURLE_GOT_NOTHING : code
                if receiver.requests > 1 {
                    // The reused connection failed as a fresh one would have: reset (the errno it left), or
                    // closed before answering.
                    failed = osErrno == 0 ? CURLE_GOT_NOTHING : CURLE_RECV_ERROR
                    written = "the connection failed before the server answered (errno \(osErrno))"
                }
                return .failure(
                    Failure(
                        code: failed, osErrno: Int32(osErrno),
                        detail: written.isEmpty ? String(cString: floor_curl_easy_strerror(code)) : written,
                        received: receiver.head.map { _ in (receiver.body.count, receiver.expected) },
                        tooLarge: receiver.tooLarge))
            }
            return .success(
                Answer(
                    status: head.status, phrase: HTTPStatusPhrase.phrase(head.status, sent: head.phrase),
                    headers: head.headers, body: receiver.body))
        }
        return result
            ?? .failure(
                Failure(
                    code: CURLE_OUT_OF_MEMORY, osErrno: 0, detail: "out of memory", received: nil,
                    tooLarge: false))
    }

    /// With a CAFile, curl is given its certificates as a blob, which takes the place of curl's default CA
    /// bundle file but not of its default CA folder (Debian's /etc/ssl/certs, hashed): the system's CAs
    /// still count through that folder. A libcurl built without a default folder gets the bundle's
    /// certificates in the blob instead (read once).
    private static let systemBundleWithoutPath: [UInt8] =
        CurlHandles.shared.with { curl in
            var folder: UnsafeMutablePointer<CChar>?
            var bundle: UnsafeMutablePointer<CChar>?
            floor_curl_get_string(curl, CURLINFO_CAPATH, &folder)
            floor_curl_get_string(curl, CURLINFO_CAINFO, &bundle)
            guard folder == nil, let bundle, let data = FileManager.default.contents(atPath: String(cString: bundle))
            else { return [] }
            return [UInt8](data) + Array("\n".utf8)
        } ?? []

    /// What curl's callbacks collect, on the transfer's thread.
    private final class Receiver {
        struct Head {
            var status = 0
            var phrase = ""
            var headers: [(name: String, value: String)] = []
        }

        let maxBytes: Int
        /// The head being read (a 1xx's is dropped when the next begins).
        var reading = Head()
        /// The final head, once its blank line arrived.
        var head: Head?
        var body: [UInt8] = []
        var expected: Int?
        var tooLarge = false
        /// How many times curl was about to send the request: more than once is a send again of its own.
        var requests = 0

        init(maxBytes: Int) {
            self.maxBytes = maxBytes
        }

        var succeeded: Bool { (200..<300).contains(head?.status ?? 0) }

        /// One header line ("HTTP/1.1 200 OK\r\n", "Name: value\r\n", or the blank line ending a head).
        static let headerLine: floor_curl_data_callback = { data, size, count, context in
            let receiver = Unmanaged<Receiver>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                .trimmingWhitespaceAndNewlines()
            return receiver.read(line) ? length : 0
        }

        /// Whether the transfer goes on.
        private func read(_ line: String) -> Bool {
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                reading = Head(
                    status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0, phrase: parts.count > 2 ? String(parts[2]) : "")
                return true
            }
            if line.isEmpty {
                guard !(100..<200).contains(reading.status) else { return true }
                head = reading
                expected = reading.headers.first { $0.name == "content-length" }.flatMap { Int($0.value) }
                if succeeded, let expected, expected > maxBytes {
                    tooLarge = true
                    return false
                }
                return true
            }
            guard let colon = line.firstIndex(of: ":") else { return true }
            reading.headers.append(
                (
                    line[..<colon].trimmingWhitespace().lowercased(),
                    line[line.index(after: colon)...].trimmingWhitespace()
                ))
            return true
        }

        /// curl is about to send the request on a connection: once, or the transfer ends (see the type).
        static let requestReady: floor_curl_prereq_callback = { context, _, _, _, _ in
            let receiver = Unmanaged<Receiver>.fromOpaque(context!).takeUnretainedValue()
            receiver.requests += 1
            return receiver.requests == 1 ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
        }

        /// A part of the body.
        static let bodyPart: floor_curl_data_callback = { data, size, count, context in
            let receiver = Unmanaged<Receiver>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            let limit = receiver.succeeded ? receiver.maxBytes : 64 << 10
            guard receiver.body.count + length <= limit else {
                if !receiver.succeeded { return length }  // read and dropped
                receiver.tooLarge = true
                return 0
            }
            receiver.body += UnsafeRawBufferPointer(start: data, count: length)
            return length
        }
    }
}
