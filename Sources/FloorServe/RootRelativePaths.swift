import FloorCore
import FloorSession

/// Page files as a tab shows them: relative to the served root (`home-2.json`, not
/// `/srv/cms/pages/home-2.json`), in events, diagnostics and error messages. Sessions read files by the
/// name `serve` was given (the root argument joined with the page's path), so only what is shown is
/// rewritten: the root's prefix is dropped where a path starts (at the start of the text or after a space,
/// a quote or a parenthesis), never inside another path.
package struct RootRelativePaths: Sendable {
    /// The root argument with one trailing `/`.
    package let prefix: String

    package init(root rootArgument: String) {
        prefix = rootArgument.hasSuffix("/") ? rootArgument : rootArgument + "/"
    }

    package func callAsFunction(_ text: String) -> String {
        guard text.contains(prefix) else { return text }
        var out = ""
        var rest = Substring(text)
        var previous: Character? = nil
        while let range = rest.range(of: prefix) {
            let before = rest[..<range.lowerBound]
            out += before
            let starts = before.last ?? previous
            if starts == nil || starts == " " || starts == "'" || starts == "\"" || starts == "(" {
                // dropped: the path goes on relative to the root
            } else {
                out += rest[range]
            }
            previous = rest[range].last
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    package func callAsFunction(_ diagnostic: Diagnostic) -> Diagnostic {
        var relative = diagnostic
        relative.message = self(diagnostic.message)
        relative.file = diagnostic.file.map { self($0) }
        return relative
    }

    package func callAsFunction(_ event: Event) -> Event {
        switch event {
        case .loadMoreRequested(let row, let page): return .loadMoreRequested(row: row, page: self(page))
        case .loadMoreCompleted(let row, let page, let rowsAdded):
            return .loadMoreCompleted(row: row, page: self(page), rowsAdded: rowsAdded)
        case .loadMoreFailed(let row, let page, let reason):
            return .loadMoreFailed(row: row, page: self(page), reason: self(reason))
        case .willDisplay, .reloaded, .impression: return event
        }
    }
}
