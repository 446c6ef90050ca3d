/// Why a check failed, as one line naming the selector, sample or call.
struct ConformanceFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
