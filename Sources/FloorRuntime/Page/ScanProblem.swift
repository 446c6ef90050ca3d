import FloorCore

/// A problem the page scan found in the page object or a floor's own fields (a repeated key, a `type` that
/// is not a string, an unknown field of the page): where it is and what it does to the screen, so that the
/// decoder can turn it into a Diagnostic with a position, a level and a consequence (ARCHITECTURE.md,
/// "Diagnostics").
package struct ScanProblem: Equatable, Sendable {
    /// The JSON path, e.g. "floors[2].type" or "nxt".
    package var path: String
    /// What is wrong, without the path ("must be a string, found number").
    package var message: String
    /// The byte offset in the page of the key or value concerned.
    package var offset: Int
    package var level: Diagnostic.Level
    package var consequence: Diagnostic.Consequence
    /// An unknown field of the page (PageFields.unknown): what `--allow-field` may silence.
    package var isUnknownField = false

    package init(
        _ path: String, _ message: String, at offset: Int, _ level: Diagnostic.Level,
        _ consequence: Diagnostic.Consequence
    ) {
        self.path = path
        self.message = message
        self.offset = offset
        self.level = level
        self.consequence = consequence
    }

    /// "path: message", as the scan's tests and messages read it.
    package var text: String { "\(path): \(message)" }
}
