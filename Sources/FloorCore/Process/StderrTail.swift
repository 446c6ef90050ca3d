import FoundationEssentials

/// The end of what a supervised child wrote to stderr, kept while every byte of it is passed on to this
/// process's own stderr as it comes (so warnings still appear live). When the child dies in a plugin call,
/// its last lines are usually the plugin's own last words ("ListingFloor.swift:115: Fatal error:
/// Unexpectedly found nil while unwrapping an Optional value"), which the crash message then quotes.
/// Keeps at most `capacity` bytes. Threading: one thread (the supervisor's) at a time.
public final class StderrTail: @unchecked Sendable {
    public let capacity: Int
    package private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 8192) { self.capacity = capacity }

    package func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
    }

    /// Forgets what was kept (a new attempt begins).
    public func reset() { bytes.removeAll(keepingCapacity: true) }

    /// The last `count` non-blank lines, oldest first, each cut to `maxLength` characters.
    public func lastLines(_ count: Int = 3, maxLength: Int = 300) -> [String] {
        Self.lastLines(of: String(decoding: bytes, as: UTF8.self), count, maxLength: maxLength)
    }

    package static func lastLines(of text: String, _ count: Int = 3, maxLength: Int = 300) -> [String] {
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
        return lines.suffix(count).map { $0.count > maxLength ? String($0.prefix(maxLength)) + "..." : String($0) }
    }

    /// The lines as one quoted phrase for a one-line message: `"first" / "second"`.
    package static func quoted(_ lines: [String]) -> String {
        lines.map { "\"\($0)\"" }.joined(separator: " / ")
    }
}
