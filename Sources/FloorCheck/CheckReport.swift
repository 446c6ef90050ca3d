import FloorCore
import HostContract

/// What `floorhost check` reports: the page problems PageCheck found plus the plugin errors of the run
/// (a plugin that failed to load, a refused registration), which fail check as page problems do; plugin
/// warnings are notes that do not. Exit status 0 exactly when `problems` is empty.
public struct CheckReport: Sendable {
    public let pages: [String]
    /// Plugin errors first (they happened first), then the pages' problems in page order.
    public let problems: [Diagnostic]
    /// Plugin diagnostics that are not errors.
    public let notes: [Diagnostic]
    /// How many of `problems` are the plugins'.
    public let pluginProblems: Int

    public init(check: PageCheck, pluginDiagnostics: [Diagnostic]) {
        self.init(checks: [check], pluginDiagnostics: pluginDiagnostics)
    }

    /// Many pages' checks (PageBatch) as one report: their pages and problems in order.
    public init(checks: [PageCheck], pluginDiagnostics: [Diagnostic]) {
        let pluginErrors = pluginDiagnostics.filter { $0.level == .error }
        var seen = Set<String>()
        pages = checks.flatMap(\.pages).filter { seen.insert($0).inserted }
        problems = pluginErrors + checks.flatMap(\.problems)
        notes = pluginDiagnostics.filter { $0.level != .error }
        pluginProblems = pluginErrors.count
    }

    public var passed: Bool { problems.isEmpty }

    /// The last line of the text output.
    /// check's text output: one line per problem not in a plugin (those go to stderr), then the summary.
    package func text() -> String {
        problems.dropFirst(pluginProblems).map {
            ControlCharacters.escaped("\($0.level.rawValue): \($0.message)") + "\n"
        }
        .joined() + summary + "\n"
    }

    public var summary: String {
        let pageCount = "\(pages.count) page\(pages.count == 1 ? "" : "s")"
        if passed { return "ok: \(pageCount) checked, no problems" }
        let inPlugins = pluginProblems == 0 ? "" : " (\(pluginProblems) in plugins, on stderr)"
        return "\(problems.count) problem\(problems.count == 1 ? "" : "s")\(inPlugins) in \(pageCount)"
    }

    /// `check --format json`: one object, `{"pages": [...], "problems": [...], "notes": [...],
    /// "summary": {"ok", "pages", "problems", "pluginProblems", "errors", "warnings"}}`; each problem and
    /// note has `level`, `message` and, where known, `file`, `plugin` and `path`.
    public func json() -> [UInt8] {
        var out = JSONWriter()
        out.raw("{")
        out.key("pages")
        out.raw("[")
        for (i, page) in pages.enumerated() {
            if i > 0 { out.raw(",") }
            out.string(page)
        }
        out.raw("],")
        out.key("problems")
        out.diagnostics(problems)
        out.raw(",")
        out.key("notes")
        out.diagnostics(notes)
        out.raw(",")
        out.key("summary")
        out.raw("{")
        out.key("ok")
        out.raw(passed ? "true" : "false")
        out.raw(",")
        out.key("pages")
        out.number(pages.count)
        out.raw(",")
        out.key("problems")
        out.number(problems.count)
        out.raw(",")
        out.key("pluginProblems")
        out.number(pluginProblems)
        out.raw(",")
        out.key("errors")
        out.number(problems.filter { $0.level == .error }.count)
        out.raw(",")
        out.key("warnings")
        out.number(problems.filter { $0.level == .warning }.count)
        out.raw("}}\n")
        return out.bytes
    }
}
