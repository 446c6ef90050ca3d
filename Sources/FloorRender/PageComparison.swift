import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession

/// `floorhost diff`: reads both pages' content (PageContent), lays the old page out, then shows the new one
/// the way a reload does (floors paired by type and id, rows by item id), and says what the editor changed
/// and what that does on screen (PageChanges), as text (DiffText) or json (DiffJSON).
package enum PageComparison {
    package static let abstract =
        "Show what an edit changes in a page and on screen between two versions; exit 1 when something does."
    package static let discussion = """
        Reads OLD and NEW and says first what changed in the content, keyed by floor and item ids: floors \
        added, deleted or moved ("floor 'flash-title' (Title) moved from floors[2] to floors[10]"), items \
        added, deleted or moved within their floor, and every field with its value before and after \
        ("floor 'feed' (ProductFeed): item 'p1' price: 59.9 → 49.9"). Then what that does on screen: it lays \
        OLD out and shows NEW the way a reload does (floors paired by type and id, rows by item id, \
        Heckel's algorithm): every floor and row inserted, deleted, moved or updated, where it is, its \
        height, and how far the content below it moves (json's shiftBelow, every change above it counted). \
        Only the two pages are compared (not the next pages they link); either may be an http:// or \
        https:// URL. Rows that show what they showed keep their heights; stats.heightCalls in the json \
        output counts the rows measured again.
        Exit status, as diff(1): 0 nothing changes (content or screen), 1 something does, 2 a page or the \
        plugin folder is unusable (64 a usage error).
        Example: floorhost diff --plugins Plugins/ home.json home-edited.json [--format json]
        """

    /// The output; thrown errors are the pages' or the plugin folder's (an unusable input: exit 2).
    /// `changed`: whether the content or anything on screen changes. In text, `diagnostics` are for stderr.
    package static func run(
        host: FloorHost, old: String, oldRoot: PageRoot, new: String, newRoot: PageRoot,
        remote: RemotePageClient, width: Double, json: Bool
    ) throws
        -> (output: [UInt8], diagnostics: [Diagnostic], changed: Bool)
    {
        let oldSource = host.pageSource(root: oldRoot, remote: remote).rooted(at: old)
        let oldBytes = try oldSource.fetchWaiting(old).get()
        let adapter = Adapter(page: try oldSource.decode(oldBytes).get(), registry: host.registry, width: width)
        let newSource = host.pageSource(root: newRoot, remote: remote)
        let newBytes = try newSource.fetchWaiting(new).get()
        let next = try newSource.decode(newBytes, reusing: ReusableFloors(adapter)).get()
        let before = adapter.stats
        let oldDiagnostics = host.diagnostics(for: adapter)
        let screen = adapter.reload([next])
        // Both pages were decoded above, so their bytes are JSON.
        let oldContent = try PageContent(bytes: oldBytes.bytes)
        let newContent = try PageContent(bytes: newBytes.bytes)
        let changes = PageChanges(
            content: ContentDiff(old: oldContent, new: newContent),
            screen: screen.namingItems(old: oldContent, new: newContent))
        var stats = adapter.stats
        stats.heightCalls -= before.heightCalls
        stats.heightsKept -= before.heightsKept
        // Each problem once: the old page's, then the new page's that it did not have.
        var diagnostics = oldDiagnostics
        for d in host.diagnostics(for: adapter) where !diagnostics.contains(where: { $0.message == d.message }) {
            diagnostics.append(d)
        }
        let output =
            json
            ? DiffJSON.render(changes, old: old, new: new, width: width, diagnostics: diagnostics, stats: stats)
            : Array(DiffText.render(changes, old: old, new: new, width: width).utf8)
        return (output, json ? [] : diagnostics, !changes.isEmpty)
    }
}
