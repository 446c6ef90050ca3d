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
        func loadMore(_ phase: StaticString, _ row: Int?, _ page: String) {
            out.raw("{")
            out.key("kind")
            out.string("loadMore")
            out.raw(",")
            out.key("phase")
            out.raw("\"")
            out.raw(phase)
            out.raw("\"")
            out.raw(",")
            out.key("row")
            if let row { out.number(row) } else { out.raw("null") }
            out.raw(",")
            out.key("page")
            out.string(page)
        }
        switch event {
        case .willDisplay(let row, let section, let sectionRow, let floor):
            out.raw("{")
            out.key("kind")
            out.string("willDisplay")
            out.raw(",")
            out.key("row")
            out.number(row)
            out.raw(",")
            out.key("section")
            out.number(section)
            out.raw(",")
            out.key("sectionRow")
            out.number(sectionRow)
            out.raw(",")
            out.key("floor")
            out.string(floor)
        case .loadMoreRequested(let row, let page):
            loadMore("requested", row, page)
        case .loadMoreCompleted(let row, let page, let added):
            loadMore("completed", row, page)
            out.raw(",")
            out.key("rowsAdded")
            out.number(added)
        case .loadMoreFailed(let row, let page, let reason):
            loadMore("failed", row, page)
            out.raw(",")
            out.key("reason")
            out.string(reason)
        case .reloaded(let floors, let kept, let measured):
            out.raw("{")
            out.key("kind")
            out.string("reload")
            out.raw(",")
            out.key("floorsChanged")
            out.number(floors)
            out.raw(",")
            out.key("rowsKept")
            out.number(kept)
            out.raw(",")
            out.key("rowsMeasured")
            out.number(measured)
        case .impression(let seen):
            out.raw("{")
            out.key("kind")
            out.string("impression")
            out.raw(",")
            out.key("floor")
            out.string(seen.floor)
            out.raw(",")
            out.key("item")
            if let item = seen.item { out.number(item) } else { out.raw("null") }
            out.raw(",")
            out.key("itemId")
            out.optional(seen.itemID)
            out.raw(",")
            out.key("row")
            out.number(seen.row)
            out.raw(",")
            out.key("section")
            out.number(seen.section)
            out.raw(",")
            out.key("sectionRow")
            out.number(seen.sectionRow)
            out.raw(",")
            out.key("type")
            out.string(seen.type)
            out.raw(",")
            out.key("fraction")
            out.number((seen.fraction * 1000).rounded() / 1000)
            out.raw(",")
            out.key("visibleMs")
            out.number(seen.visibleMilliseconds)
            out.raw(",")
            out.key("atMs")
            out.number(seen.at)
        }
        out.raw("}")
    }
}
