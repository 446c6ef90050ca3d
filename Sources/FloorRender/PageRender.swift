import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import FloorText

/// `floorhost render`: a page laid out for a screen, scrolled, and written as text, json or html, or the
/// action of a tap. Every plugin call has returned before anything is written (the caller writes
/// `output`), so that a supervised attempt that crashed leaves nothing behind.
package struct PageRender: Sendable {
    package enum Format: String, CaseIterable, Sendable {
        case text
        case json
        case html
    }

    package var format: Format = .text
    /// Terminal columns for text, layout points for json and html (nil: 75 columns, 375 points).
    package var width: Double?
    package var viewport: ViewportSize?
    package var scrollTo: ScrollTarget?
    package var tap: TapTarget?
    package var retries = 0
    package var prefetch: Prefetch = .standard
    package var impressions: ImpressionRule?
    package var dispatch: DispatchMode = .typed
    /// Text in colour and bold (ANSI).
    package var styled = false
    package var gutter = false

    package init() {}

    /// What to write: `output` to stdout, `messages` to stderr (json carries its diagnostics in the output);
    /// `failed` when the tap found no action.
    package struct Result {
        package let output: Output
        package let messages: [String]
        package let failed: Bool
        /// The session the output was drawn from, with its page and models: for the caller to keep until the
        /// process ends (floorhost's finish), so that no model is freed, and no plugin called, after the render.
        package let session: PageSession
    }

    /// A render's output: every plugin call has returned before it exists, so writing it runs no plugin code.
    package enum Output {
        case bytes([UInt8])
        /// The text preview, its repeated lines held once (TextOutput).
        case text(TextOutput)
        /// json, written chunk by chunk (JSONOutput): never held whole.
        case json(JSONOutput)

        /// Writes the output to `output`, in one piece, in pieces gathered or in chunks; stops at the first
        /// write that fails (a HostOutput.Failure).
        package func write(to output: HostOutput) throws {
            switch self {
            case .bytes(let bytes): try output.write(bytes)
            case .text(let text): try text.write(to: output)
            case .json(let json): try Self.write(json, to: output)
            }
        }

        /// `json` written chunk by chunk to `output`. Not optimized: a closure written at JSONOutput's call gets
        /// its writing specialized for it, and that specialization retained once a row (43,000 times on the 8 MB
        /// page, on both of its threads: 3 ms of the json render; BENCHMARKS.md, issue 23, "Output held once a
        /// line"); from here it gets the closure as an unknown value, as it always did.
        @_optimize(none)
        private static func write(_ json: JSONOutput, to output: HostOutput) throws {
            try json.write { try output.write($0) }
        }
    }

    /// Throws when the page is unusable (unreadable, malformed, refused).
    package func run(host: FloorHost, page: String, root: PageRoot, remote: RemotePageClient) throws -> Result {
        // --width counts columns for text and points for json; --viewport's width, when given, is the layout's.
        let textWidth = TextRenderer.layoutWidth(columns: Int(width ?? Double(TextRenderer.defaultColumns)))
        let screen = viewport ?? ViewportSize(width: format == .text ? textWidth : width ?? 375, height: 812)
        let columns = Int(width ?? (screen.width / TextRenderer.pointsPerColumn).rounded())
        let wholePage = viewport == nil && scrollTo == nil
        // A render lays each text out once: nothing is kept for a second time (TextEngine.keepBlocks).
        TextEngine.keepBlocks(false)
        // The whole page's text preview draws every row after measuring it: each title's lines, found for its
        // row's height, are kept and taken again when it is drawn (TextEngine.reuseMeasures).
        let drawsEveryRow = format == .text && wholePage && tap == nil
        if drawsEveryRow { TextEngine.reuseMeasures(.keeping) }
        defer {
            TextEngine.keepBlocks(true)
            TextEngine.reuseMeasures(.off)
        }
        // The whole page's rows measured as the drawing reaches them, where the page has no next page (whose
        // rows the session would merge in first): lines drawn are written on the writer's thread while the
        // next rows are measured (ARCHITECTURE.md, "Output contract").
        let adapter = try host.layout(
            page: page, root: root, remote: remote, width: screen.width, dispatch: dispatch,
            measuring: drawsEveryRow ? .asReached : .now)
        let options = TextRenderer.Options(columns: columns, styled: styled, gutter: gutter)
        var output = TextOutput()
        let drawnAsMeasured = drawsEveryRow && adapter.page.next == nil
        if !drawnAsMeasured { adapter.measureRest() }
        if drawsEveryRow { TextEngine.reuseMeasures(.reusing) }
        if drawnAsMeasured { TextPreview.writeWholePage(adapter, options: options, to: &output) }
        let session = PageSession(
            adapter: adapter, viewportHeight: screen.height,
            source: host.pageSource(root: root, remote: remote),
            retries: retries, prefetch: prefetch, impressions: impressions)
        switch scrollTo {
        case .end?: session.scrollToEnd()
        case .offset(let y)?: session.scroll(toward: y)
        case nil: break
        }
        session.settleImpressions()
        // A next page that failed to load is a problem of this render, not only an event.
        var diagnostics: [Diagnostic] { host.diagnostics(for: adapter) + session.loadDiagnostics }
        if let tap {
            let tapped = session.tap(section: tap.section, row: tap.row, item: tap.item)
            var messages = diagnostics.map { $0.line }
            switch tapped {
            case .success(let action):
                return Result(
                    output: .bytes(Array(TapOutput.json(action).utf8)), messages: messages, failed: false,
                    session: session)
            case .failure(let none):
                messages.append("no action: \(none)")
                return Result(output: .bytes([]), messages: messages, failed: true, session: session)
            }
        }
        switch format {
        case .text:
            if drawnAsMeasured {
                TextPreview.writeFooter(session, extent: .wholePage, options: options, to: &output)
            } else {
                TextPreview.write(session, extent: wholePage ? .wholePage : .screen, options: options, to: &output)
            }
        case .json:
            // json carries its diagnostics in the output (it draws no cell).
            let json = JSONRenderer.prepare(session, plugins: host.plugins, diagnostics: diagnostics)
            return Result(output: .json(json), messages: [], failed: false, session: session)
        case .html:
            let html = Array(HTMLRenderer.render(session, diagnostics: diagnostics).utf8)
            return Result(output: .bytes(html), messages: diagnostics.map { $0.line }, failed: false, session: session)
        }
        // Told after the drawing (and the tap), so that what the plugins' calls reported there is told too (a
        // plugin's message while drawing a cell, a paged row's page count out of bounds): gathered before, such
        // messages were lost.
        return Result(output: .text(output), messages: diagnostics.map { $0.line }, failed: false, session: session)
    }
}
