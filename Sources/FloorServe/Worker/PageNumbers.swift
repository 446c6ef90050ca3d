import Foundation

/// Page files' numbers in a worker: the server's table (`--page-ordinal N=FILE`, what its earlier workers
/// numbered), then new files in the order they are decoded.
package final class PageNumbers: @unchecked Sendable {
    private var table: [String: Int32]
    private let lock = NSLock()

    /// From `--page-ordinal` values, `N=FILE`; one of another form is ignored.
    package init(arguments: [String]) {
        let entries = arguments.compactMap { entry -> (String, Int32)? in
            guard let equals = entry.firstIndex(of: "="), let n = Int32(entry[..<equals]) else { return nil }
            return (String(entry[entry.index(after: equals)...]), n)
        }
        table = Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }

    /// The file's number; a new number is announced (through `announce`) before it is used.
    package func ordinal(_ file: String, announce: (Int32) -> Void) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let n = table[file] { return n }
        let n = (table.values.max() ?? -1) + 1
        table[file] = n
        announce(n)
        return n
    }
}
