/// A page that cannot be used at all: unreadable, not JSON, or not shaped like a page. The message starts
/// with "file:line:column:" where a position is known, as compilers do, so editors can jump to it.
public struct PageError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let reason: String
    /// The JSON field of `file` the problem is about ("next" when the page it names was refused).
    public var path: String? = nil

    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file): \(reason)"
    }
}
