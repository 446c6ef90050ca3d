/// Field names a CMS puts in its pages for itself (`--allow-field NAME`): an unknown field of the page, of
/// a floor or of an item with one of these names is the CMS's own, and no diagnostic is said for it, not
/// even a near miss's (the person who named it says it is not a typo). A known field is unaffected: its
/// value is still checked. Matched by the field's own name, the last part of its JSON path, at any depth.
public struct AllowedFields: Sendable, Equatable {
    public let names: Set<String>

    public init(_ names: some Sequence<String> = []) { self.names = Set(names) }

    /// Whether the unknown field at `path` (`cmsVersion`, `floors[2].items[0].trackingId`) is allowed.
    public func allows(path: String) -> Bool {
        guard !names.isEmpty else { return false }
        let last = path.split(separator: ".").last.map(String.init) ?? path
        return names.contains(last)
    }
}
