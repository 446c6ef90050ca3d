import FloorCore
import FloorRuntime
import FloorSession

/// `floorhost check` over many pages: each page is checked as the head of its chain of next pages
/// (PageCheck), one after another in this process, and a page another page's chain already went through
/// is reported there only (so `check Examples/` checks home.json's chain once, not home-2.json again on
/// its own). Plugins are called from one thread at a time (floor_abi.h), so parallelism is by processes:
/// ParallelCheck gives each of several children a share of the pages and merges what they report here.
public enum PageBatch {
    /// Checks `files` in order, each read through `root(file)` (nil: the file's own folder), or fetched by
    /// `remote` when it is a URL; unknown fields `allowed` names are not problems.
    public static func run(
        files: [String], registry: Registry, remote: RemotePageClient? = nil,
        root: (String) -> PageRoot? = { _ in nil }, allowed: AllowedFields = AllowedFields()
    ) -> [PageCheck] {
        files.map { PageCheck.run(file: $0, registry: registry, root: root($0), remote: remote, allowed: allowed) }
    }

    /// The checks whose head no other kept chain covers, in order. When two chains cover each other's
    /// heads (a loop of next pages), the earlier one is kept.
    public static func covering(_ checks: [PageCheck]) -> [PageCheck] {
        let chains = checks.map { Set($0.pages) }
        return checks.indices.filter { p in
            let head = checks[p].pages.first ?? ""
            return !checks.indices.contains { q in
                q != p && chains[q].contains(head) && (!chains[p].contains(checks[q].pages.first ?? "") || q < p)
            }
        }.map { checks[$0] }
    }

    /// What a share's child writes (`check --share`): its checks and the plugin diagnostics of its run,
    /// one JSON object, for `decode` in the parent.
    public static func encode(_ checks: [PageCheck], pluginDiagnostics: [Diagnostic]) -> [UInt8] {
        var out = JSONWriter()
        out.object { o in
            o.array("checks", checks) { check, out in
                out.object { c in
                    c.array("pages", check.pages) { page, out in out.string(page) }
                    c.key("problems")
                    c.writer.diagnostics(check.problems, withAbout: true)
                }
            }
            o.key("plugins")
            o.writer.diagnostics(pluginDiagnostics)
        }
        out.raw("\n")
        return out.bytes
    }

    public struct ShardError: Error, Sendable { public let message: String }

    public static func decode(_ bytes: [UInt8]) throws(ShardError) -> (
        checks: [PageCheck], pluginDiagnostics: [Diagnostic]
    ) {
        let document: SchemaValue
        do {
            document = try SchemaValue.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ShardError(message: "its report is not JSON (\(error))")
        }
        func strings(_ value: SchemaValue?) -> [String] {
            guard case .array(let list)? = value else { return [] }
            return list.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        func text(_ value: SchemaValue?) -> String? { if case .string(let s)? = value { s } else { nil } }
        func diagnostics(_ value: SchemaValue?) -> [Diagnostic] {
            guard case .array(let list)? = value else { return [] }
            func int(_ value: SchemaValue?) -> Int? {
                if case .number(let n, _)? = value { Int(exactly: n) } else { nil }
            }
            return list.map { d in
                var position: SourcePosition?
                if let line = int(d["line"]), let column = int(d["column"]), let offset = int(d["offset"]) {
                    position = SourcePosition(line: line, column: column, offset: offset)
                }
                return Diagnostic(
                    Diagnostic.Level(rawValue: text(d["level"]) ?? "") ?? .error, text(d["message"]) ?? "",
                    file: text(d["file"]), plugin: text(d["plugin"]), path: text(d["path"]),
                    consequence: text(d["consequence"]).flatMap(Diagnostic.Consequence.init(rawValue:)),
                    position: position, about: text(d["about"]))
            }
        }
        guard case .array(let checks)? = document["checks"] else {
            throw ShardError(message: "its report has no checks")
        }
        return (
            checks.map { PageCheck(pages: strings($0["pages"]), problems: diagnostics($0["problems"])) },
            diagnostics(document["plugins"])
        )
    }
}
