import FloorCore

/// The fields of the page object itself. `$schema` is allowed so that an editor can be pointed at the
/// page schema (`floorhost schema`). Any other field is unknown: a near miss of a known one is an error with
/// the suggestion ("nxt: unknown field of the page; did you mean 'next'?"), anything else is a CMS's own
/// metadata (a page `id`, a version, a timestamp), ignored with a warning (Suggestion.nearMiss).
public enum PageFields {
    public static let names = ["floors", "next", "title"]

    /// `--allow-field`'s help (render, check, view, serve and diff read pages; `schema` does not use it).
    public static let allowFieldHelp =
        "A field of the CMS's own (on the page, a floor or an item): no warning when a page has it (repeatable). Pages only: schema ignores it."

    /// The problem for an unknown page field at byte `offset` (its key).
    package static func unknown(_ name: String, at offset: Int) -> ScanProblem {
        var problem =
            if let meant = Suggestion.nearMiss(name, among: names) {
                ScanProblem(name, "unknown field of the page; did you mean '\(meant)'?", at: offset, .error, .ignored)
            } else {
                ScanProblem(
                    name, "unknown field of the page (a page has: \(names.joined(separator: ", ")), and $schema)",
                    at: offset, .warning, .ignored)
            }
        problem.isUnknownField = true
        return problem
    }
}
