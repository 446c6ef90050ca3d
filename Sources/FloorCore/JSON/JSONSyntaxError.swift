/// Where and why bytes are not JSON (or not the shape a reader wanted), as JSONCursor reports it. Public, as
/// PageSyntaxError (its name in FloorRuntime) was readable by the fuzzers' `@testable import FloorRuntime`.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset of the offending byte in the data; the data's length when the input ended too early.
    public var offset: Int
    /// 1-based; lines end at "\n" (so "\r\n" counts once).
    public var line: Int
    /// 1-based, counted in Unicode scalars from the start of the line (after a skipped BOM on line 1).
    public var column: Int
    public var message: String

    /// "line:column: message", ready to follow a file name.
    public var description: String { "\(line):\(column): \(message)" }

    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }
}
