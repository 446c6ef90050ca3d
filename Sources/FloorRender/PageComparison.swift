import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession

/// `floorhost diff`: lays the old page out, then shows the new one the way a reload does (floors paired by
/// type and id, rows by item id), and says what changed on screen, as text (DiffText) or json (DiffJSON).
package enum PageComparison {
    /// The output; thrown errors are the pages' or the plugin folder's (an unusable input: exit 2).
    /// `changed`: whether anything on screen changes. In text, `diagnostics` are for stderr.
    package static func run(
        host: FloorHost, old: String, oldRoot: PageRoot, new: String, newRoot: PageRoot,
        remote: RemotePageClient, width: Double, json: Bool
    ) throws
        -> (output: [UInt8], diagnostics: [Diagnostic], changed: Bool)
    {
        let adapter = try host.layout(page: old, root: oldRoot, remote: remote, width: width)
        let next = try PageSource(registry: host.registry, root: newRoot, remote: remote)
            .load(new, reusing: ReusableFloors(adapter)).get()
        let before = adapter.stats
        let oldDiagnostics = host.diagnostics(for: adapter)
        let diff = adapter.reload([next])
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
            ? DiffJSON.render(diff, old: old, new: new, width: width, diagnostics: diagnostics, stats: stats)
            : Array(DiffText.render(diff, old: old, new: new, width: width).utf8)
        return (output, json ? [] : diagnostics, !diff.isEmpty)
    }
}
