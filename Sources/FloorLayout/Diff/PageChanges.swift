/// What `floorhost diff` reports, the one model its two printers (DiffText, DiffJSON) write: what the
/// editor changed in the page's JSON (ContentDiff), then what that does on screen (PageDiff). A printer
/// adds no fact of its own: every number and word either prints comes from here, so the text and the json
/// say the same thing.
public struct PageChanges: Sendable {
    public let content: ContentDiff
    public let screen: PageDiff

    public init(content: ContentDiff, screen: PageDiff) {
        self.content = content
        self.screen = screen
    }

    /// Nothing changed: neither the JSON's content nor anything on screen.
    public var isEmpty: Bool { content.isEmpty && screen.isEmpty }
}
