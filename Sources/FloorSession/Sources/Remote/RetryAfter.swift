import FloorCore
import FoundationEssentials

/// The `Retry-After` header (RFC 9110 10.2.3): seconds to wait, written as a number of seconds or as an
/// HTTP date. A date in the past is 0; anything else unreadable is nil (the header is then ignored).
package enum RetryAfter {
    package static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let text = value.trimmingWhitespace()
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        return HTTPDate.parse(text).map { max(0, $0.timeIntervalSince(now)) }
    }
}
