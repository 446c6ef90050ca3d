/// A page's bytes as fetched, and where they came from: the file read, or the URL that answered after any
/// redirects. That location is the page's base: its `next` resolves against it (RFC 3986: the retrieval
/// URI), and messages about its content name it. Threading: a value.
public struct FetchedPage: Sendable {
    public let bytes: [UInt8]
    /// The file, or the URL of the last hop.
    public let base: String

    public init(bytes: [UInt8], base: String) {
        self.bytes = bytes
        self.base = base
    }
}
