/// A page that cannot be used at all: unreadable, not JSON, or not shaped like a page. The message starts
/// with "file:line:column:" where a position is known, as compilers do, so editors can jump to it.
public struct PageError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let reason: String
    /// The byte offset of `line:column`, when known.
    public var offset: Int? = nil
    /// The JSON field of `file` the problem is about ("next" when the page it names was refused).
    public var path: String? = nil
    /// Trying again may succeed: the page did not arrive (a missing file, a connection refused or reset, a
    /// time limit, a 5xx, 408 or 429), as opposed to a page that arrived and is unusable, or was refused.
    /// RetryPolicy retries only these.
    public var retryable = false
    /// Seconds the server asked to wait before trying again (`Retry-After`), when it said.
    public var retryAfter: Double? = nil

    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file): \(reason)"
    }

    package init(
        file: String, line: Int?, column: Int?, reason: String, path: String? = nil, retryable: Bool = false,
        retryAfter: Double? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
        self.path = path
        self.retryable = retryable
        self.retryAfter = retryAfter
    }
}
