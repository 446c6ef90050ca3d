import FloorCore
import FloorRuntime
import FloorSession

/// What `floorhost check` does once its pages are known: in this process (one batch, or a share of a
/// parallel check, whose encoded batch is its whole output), or shared out to `jobs` child processes
/// (ParallelCheck), each running `share` + its share of the pages. The CLI wires the plugins and the
/// supervision around it.
package enum CheckRun {
    /// `floorhost check --help`'s first line.
    package static let abstract = "Validate pages and every next page they link; exit 1 when there is an error."

    /// What `floorhost check --help` says of it.
    package static let discussion = """
        Makes every call a render makes (decode, validate, expand, heights, next-page extend, every \
        row's cell selector, tappable items and every item's action); a floor a plugin crashes or hangs \
        on, a plugin that failed to load and a refused registration are problems too. Each floor is held \
        to its type's schema (unknown, wrongly typed and missing fields), and the page to the page's \
        fields. Many pages (files, folders, globs) are checked side by side, one process a core, with \
        one summary; a page another page's chain of next pages reaches is reported with that chain.
        An error (the screen differs from the page) fails check; a warning (a field ignored) only with \
        --strict. Each problem says file:line:column, the JSON path and what happened to the content.
        For CMS pipelines: floorhost check --plugins Plugins/ pages/ [--format json]
        """

    /// The report of checking `files` here with `registry`'s plugins, or a share's encoded batch.
    /// `pluginDiagnostics`: what loading the plugins said and what they logged, read once every plugin call
    /// has returned.
    package static func here(
        _ files: [String], registry: Registry, remote: RemotePageClient, root: @escaping (String) -> PageRoot,
        share: Bool, strict: Bool = false, allowed: AllowedFields = AllowedFields(),
        pluginDiagnostics: () -> [Diagnostic]
    ) -> Output {
        let checks = PageBatch.run(files: files, registry: registry, remote: remote, root: root, allowed: allowed)
        if share { return .share(PageBatch.encode(checks, pluginDiagnostics: pluginDiagnostics())) }
        let diagnostics = pluginDiagnostics()
        return .report(
            CheckReport(checks: PageBatch.covering(checks), pluginDiagnostics: diagnostics, strict: strict), diagnostics
        )
    }

    /// The report of `files` checked by `jobs` children at once, each started as `share` + `--` + its pages.
    package static func inParallel(_ files: [String], jobs: Int, share: [String], strict: Bool = false)
        throws(ParallelCheck.Failure) -> Output
    {
        let merged = try ParallelCheck.run(files: files, jobs: jobs) { pages in share + ["--"] + pages }
        let report = CheckReport(
            checks: PageBatch.covering(merged.checks), pluginDiagnostics: merged.pluginDiagnostics, strict: strict)
        return .report(report, merged.pluginDiagnostics)
    }

    /// What to print.
    package enum Output {
        /// A report, and the plugins' diagnostics (text prints them on stderr, json holds them).
        case report(CheckReport, [Diagnostic])
        /// A share's encoded batch, for its parent.
        case share([UInt8])

        /// Whether check passes (a share always does: its parent judges).
        package var passed: Bool {
            if case .report(let report, _) = self { return report.passed }
            return true
        }

        /// The bytes for stdout and the lines for stderr.
        package func printed(json: Bool, junit: Bool = false) -> (output: [UInt8], errors: [String]) {
            switch self {
            case .share(let bytes): return (bytes, [])
            case .report(let report, _) where json: return (report.json(), [])
            case .report(let report, let diagnostics) where junit: return (report.junit(), diagnostics.map(\.line))
            case .report(let report, let diagnostics):
                return (Array(report.text().utf8), diagnostics.map { $0.line })
            }
        }
    }
}
