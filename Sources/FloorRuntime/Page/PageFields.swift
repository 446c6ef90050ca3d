/// The fields of the page object itself. `$schema` is allowed so that an editor can be pointed at the
/// page schema (`floorhost schema`); any other field is unknown: a warning with a did-you-mean, which
/// `floorhost check` counts as a problem ("nxt: unknown field of the page; did you mean 'next'?").
public enum PageFields {
    public static let names = ["floors", "next", "title"]

    /// The problem for an unknown page field, starting with its path (the field's name).
    package static func unknown(_ name: String) -> String {
        let hint =
            Suggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" }
            ?? " (a page has: \(names.joined(separator: ", ")), and $schema)"
        return "\(name): unknown field of the page\(hint)"
    }
}
