import FloorCore
import FloorRender
import HostContract

/// What `floorhost check` reports: the page problems PageCheck found plus the plugin errors of the run
/// (a plugin that failed to load, a refused registration). Levels (ARCHITECTURE.md, "Diagnostics"): errors
/// fail check (exit 1), warnings inform (exit 0, unless `strict`), info is never a problem; a plugin's own
/// messages that are not errors are notes.
public struct CheckReport: Sendable {
    public let pages: [String]
    /// Plugin errors first (they happened first), then the pages' errors and warnings in page order.
    public let problems: [Diagnostic]
    /// Plugin diagnostics that are not errors.
    public let notes: [Diagnostic]
    /// How many of `problems` are the plugins'.
    public let pluginProblems: Int
    /// `check --strict`: warnings fail too.
    public let strict: Bool

    public init(check: PageCheck, pluginDiagnostics: [Diagnostic], strict: Bool = false) {
        self.init(checks: [check], pluginDiagnostics: pluginDiagnostics, strict: strict)
    }

    /// Many pages' checks (PageBatch) as one report: their pages and problems in order.
    public init(checks: [PageCheck], pluginDiagnostics: [Diagnostic], strict: Bool = false) {
        let pluginErrors = pluginDiagnostics.filter { $0.level == .error }
        var seen = Set<String>()
        pages = checks.flatMap(\.pages).filter { seen.insert($0).inserted }
        problems = pluginErrors + checks.flatMap(\.problems).filter { $0.level != .info }
        notes = pluginDiagnostics.filter { $0.level != .error }
        pluginProblems = pluginErrors.count
        self.strict = strict
    }

    public var errors: Int { problems.count { $0.level == .error } }
    public var warnings: Int { problems.count { $0.level == .warning } }

    /// No errors (and, with `strict`, no warnings).
    public var passed: Bool { errors == 0 && (!strict || warnings == 0) }

    /// The last line of the text output.
    /// check's text output: one line per problem not in a plugin (those go to stderr), one problem at many
    /// places grouped into one line with its count (Diagnostic.grouped), then the summary (which counts
    /// every place). `json()` keeps every problem, one per place.
    package func text() -> String {
        Diagnostic.grouped(Array(problems.dropFirst(pluginProblems))).map {
            ControlCharacters.escaped($0.line) + "\n"
        }
        .joined() + summary + "\n"
    }

    /// "ok: 3 pages checked, no problems", "ok: 3 pages checked; 2 warnings", "1 error, 6 warnings in 3 pages".
    public var summary: String {
        let pageCount = "\(pages.count) page\(pages.count == 1 ? "" : "s")"
        if problems.isEmpty { return "ok: \(pageCount) checked, no problems" }
        let warned = "\(warnings) warning\(warnings == 1 ? "" : "s")"
        if passed { return "ok: \(pageCount) checked; \(warned)" }
        let counts = (errors > 0 ? ["\(errors) error\(errors == 1 ? "" : "s")"] : []) + (warnings > 0 ? [warned] : [])
        let inPlugins = pluginProblems == 0 ? "" : " (\(pluginProblems) in plugins, on stderr)"
        let failed = strict && errors == 0 ? " (--strict)" : ""
        return "\(counts.joined(separator: ", "))\(inPlugins)\(failed) in \(pageCount)"
    }

    /// `check --format json`: one object, `{"pages": [...], "problems": [...], "notes": [...],
    /// "summary": {"ok", "pages", "problems", "pluginProblems", "errors", "warnings"}}`; each problem and
    /// note has `level`, `message` and, where known, `file`, `plugin` and `path`. Every problem is listed, one
    /// per place, never grouped (Diagnostic.grouped): a pipeline maps each path to a field of its editor.
    public func json() -> [UInt8] {
        var out = JSONWriter()
        out.object { o in
            o.array("pages", pages) { page, out in out.string(page) }
            o.key("problems")
            o.writer.diagnostics(problems)
            o.key("notes")
            o.writer.diagnostics(notes)
            o.object("summary") { summary in
                summary.member("ok", passed)
                summary.member("pages", pages.count)
                summary.member("problems", problems.count)
                summary.member("pluginProblems", pluginProblems)
                summary.member("errors", errors)
                summary.member("warnings", warnings)
            }
        }
        out.raw("\n")
        return out.bytes
    }

    /// `check --format junit`, for CI systems that show test reports: one `testsuite`, a `testcase` per page
    /// checked (named by its path) and one for the plugins; each error a `failure`, each warning a line of
    /// the test case's `system-out` (and a `failure` too under `--strict`). Same exit status as text.
    public func junit() -> [UInt8] {
        func failing(_ d: Diagnostic) -> Bool { d.level == .error || (strict && d.level == .warning) }
        var cases: [(name: String, problems: [Diagnostic])] = pages.map { ($0, []) }
        let index = Dictionary(pages.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var plugins: [Diagnostic] = []
        for problem in problems {
            if let page = problem.file.flatMap({ index[$0] }) {
                cases[page].problems.append(problem)
            } else {
                plugins.append(problem)
            }
        }
        if !plugins.isEmpty { cases.append(("plugins", plugins)) }
        let failures = cases.filter { $0.problems.contains(where: failing) }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"floorhost check\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"floorhost check\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
        for (name, found) in cases {
            xml += "    <testcase classname=\"check\" name=\"\(HTMLText.escaped(name))\""
            guard !found.isEmpty else {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            for problem in found where failing(problem) {
                xml +=
                    "      <failure type=\"\(problem.level.rawValue)\" message=\"\(HTMLText.escaped(problem.message))\"/>\n"
            }
            let said = found.map { HTMLText.escaped($0.line) }.joined(separator: "\n")
            xml += "      <system-out>\(said)</system-out>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return Array(xml.utf8)
    }
}
