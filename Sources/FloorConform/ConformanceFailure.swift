/// Why a check failed, as one line naming the selector, sample or call.
package struct ConformanceFailure: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
