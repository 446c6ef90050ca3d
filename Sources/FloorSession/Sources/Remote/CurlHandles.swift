import CSystemLibraries
import FloorCore
import FoundationEssentials

/// The process's idle libcurl easy handles. A handle keeps its live connections (and TLS sessions) across
/// curl_easy_reset, so a load that takes the handle the one before it gave back reuses that kept-alive
/// connection: a session's next pages go out over one connection, as they do in a browser. A handle is
/// used by one transfer at a time; at most `kept` idle ones are kept, the others cleaned up. A handle whose
/// OS error is set (CURLINFO_OS_ERRNO: a connect or a read failed) is not kept either: curl never clears it,
/// and a later transfer's failure must read its own, not an old one.
/// Threading: `with` may be called from any thread, many at once.
final class CurlHandles: @unchecked Sendable {
    static let shared = CurlHandles()

    private static let kept = 8
    private let lock = HostLock()
    private var idle: [UnsafeMutableRawPointer] = []
    /// Why the system's libcurl could not be loaded (CSystemLibraries loads it on first use), or nil when it was.
    let unavailable: String?

    private init() {
        var reason = [CChar](repeating: 0, count: 512)
        let loaded = floor_curl_load(&reason, reason.count) == 0
        let why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unavailable =
            loaded ? nil : "the system's libcurl could not be loaded (\(why)); install libcurl4 (Scripts/setup does)"
    }

    /// Runs `body` with a handle of its own, reset to curl's defaults, then keeps the handle for the next;
    /// nil when curl is `unavailable` or cannot make a handle (out of memory).
    func with<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T? {
        guard unavailable == nil else { return nil }
        let taken = lock.withLock { idle.popLast() }
        guard let handle = taken ?? floor_curl_easy_init() else { return nil }
        floor_curl_easy_reset(handle)
        let result = body(handle)
        var osErrno = 0
        floor_curl_get_long(handle, CURLINFO_OS_ERRNO, &osErrno)
        floor_curl_easy_reset(handle)
        let keep = lock.withLock {
            guard osErrno == 0, idle.count < Self.kept else { return false }
            idle.append(handle)
            return true
        }
        if !keep { floor_curl_easy_cleanup(handle) }
        return result
    }
}
