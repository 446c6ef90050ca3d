import Foundation

/// Where next pages come from: a `next` location is a path relative to the page that names it, read
/// through the page root (see PageRoot). A source made without a root takes the first page's folder
/// (`rooted(at:)`, which PageSession and PageCheck call with their first page).
public struct PageSource: Sendable {
    let registry: Registry
    /// Nil until `rooted(at:)`; `load` never reads without one.
    public let root: PageRoot?

    public init(registry: Registry, root: PageRoot? = nil) {
        self.registry = registry
        self.root = root
    }

    /// This source, with the folder of `firstPage` as its root unless it has one.
    public func rooted(at firstPage: String) -> PageSource {
        root == nil ? PageSource(registry: registry, root: PageRoot(around: firstPage)) : self
    }

    /// The file a page's `next` names.
    public static func resolve(_ next: String, relativeTo page: String) -> String {
        if next.hasPrefix("/") { return next }
        let folder = (page as NSString).deletingLastPathComponent
        return folder.isEmpty ? next : (folder as NSString).appendingPathComponent(next)
    }

    /// Loads the page at `file`. With `linkedFrom` (the page whose `next` named it, and the link as
    /// written), a page the root refuses is that page's problem: "home.json: next: '../x.json' resolves
    /// outside the page root ...", never the refused file's content.
    public func load(_ file: String, linkedFrom: (page: String, link: String)? = nil) -> Result<Page, PageError> {
        let root = root ?? PageRoot(around: file)
        let bytes: [UInt8]
        do {
            bytes = try root.read(file)
        } catch {
            guard error.isTrustRefusal, let linkedFrom else {
                return .failure(PageError(file: file, line: nil, column: nil, reason: error.description))
            }
            return .failure(PageError(file: linkedFrom.page, line: nil, column: nil,
                                      reason: "next: '\(linkedFrom.link)' \(error.description)", path: "next"))
        }
        return Result { () throws(PageError) in try PageDecoder.decode(bytes: bytes, file: file, registry: registry) }
    }
}
