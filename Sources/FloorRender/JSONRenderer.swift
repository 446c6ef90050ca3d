import CFloorABI
import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import FloorText

/// The machine-readable output (ARCHITECTURE.md, "Output contract"): one object with `rows`, `diagnostics`,
/// `events`, the `viewport` (final offset, visible rows, pinned header), the `cells` drawn for the visible
/// rows, and `stats` (selector calls, so tests can prove what is cached). Field order is fixed so output
/// diffs cleanly.
public enum JSONRenderer {
    /// The whole output as one buffer (the preview's answers, the fuzzers, tests).
    public static func render(_ session: PageSession, plugins: [PluginInfo], diagnostics: [Diagnostic]) -> [UInt8] {
        var bytes: [UInt8] = []
        prepare(session, plugins: plugins, diagnostics: diagnostics).write { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Asks the plugins everything the output needs (the cells on screen, each row's tappable items and
    /// pages), so that writing it afterwards runs no plugin code (PageRender's contract).
    public static func prepare(_ session: PageSession, plugins: [PluginInfo], diagnostics: [Diagnostic]) -> JSONOutput {
        JSONOutput(session: session, plugins: plugins, diagnostics: diagnostics)
    }

    /// `"fonts":{"name":...,"files":[{"file","package","version","sha256"}]}`: the font set real text is
    /// measured with (Fonts.lock; docs/ABI.md, "Text layout"), so two outputs say whether they can agree.
    static func writeFontSet(into o: inout JSONWriter.Members) {
        o.object("fonts") { fonts in
            fonts.member("name", FontSet.name)
            fonts.array("files", FontSet.files) { file, out in
                out.object { f in
                    f.member("file", file.fileName)
                    f.member("package", file.package)
                    f.member("version", file.version)
                    f.member("sha256", file.sha256)
                }
            }
        }
    }

    /// One event as the `events` array carries it.
    public static func write(_ event: Event, into out: inout JSONWriter) {
        out.object { o in
            switch event {
            case .willDisplay(let row, let section, let sectionRow, let floor):
                o.member("kind", "willDisplay")
                o.member("row", row)
                o.member("section", section)
                o.member("sectionRow", sectionRow)
                o.member("floor", floor)
            case .loadMoreRequested(let row, let page):
                loadMore(&o, "requested", row, page)
            case .loadMoreCompleted(let row, let page, let added):
                loadMore(&o, "completed", row, page)
                o.member("rowsAdded", added)
            case .loadMoreFailed(let row, let page, let reason):
                loadMore(&o, "failed", row, page)
                o.member("reason", reason)
            case .reloaded(let floors, let kept, let measured):
                o.member("kind", "reload")
                o.member("floorsChanged", floors)
                o.member("rowsKept", kept)
                o.member("rowsMeasured", measured)
            case .impression(let seen):
                o.member("kind", "impression")
                o.member("floor", seen.floor)
                o.member("item", seen.item)
                o.member("itemId", seen.itemID)
                o.member("row", seen.row)
                o.member("section", seen.section)
                o.member("sectionRow", seen.sectionRow)
                o.member("type", seen.type)
                o.member("fraction", (seen.fraction * 1000).rounded() / 1000)
                o.member("visibleMs", seen.visibleMilliseconds)
                o.member("atMs", seen.at)
            }
        }
    }

    /// A load-more event's first members: `{"kind":"loadMore","phase","row","page"`.
    private static func loadMore(_ o: inout JSONWriter.Members, _ phase: String, _ row: Int?, _ page: String) {
        o.member("kind", "loadMore")
        o.member("phase", phase)
        o.member("row", row)
        o.member("page", page)
    }
}
