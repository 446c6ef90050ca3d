import Foundation

/// Where next pages come from: a `next` location is a path relative to the page that names it.
public struct PageSource: Sendable {
    let registry: Registry

    public init(registry: Registry) {
        self.registry = registry
    }

    /// The file a page's `next` names.
    public static func resolve(_ next: String, relativeTo page: String) -> String {
        if next.hasPrefix("/") { return next }
        let folder = (page as NSString).deletingLastPathComponent
        return folder.isEmpty ? next : (folder as NSString).appendingPathComponent(next)
    }

    public func load(_ file: String) -> Result<Page, PageError> {
        Result { () throws(PageError) in try PageDecoder.decode(file: file, registry: registry) }
    }
}
