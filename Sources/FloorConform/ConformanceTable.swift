import FloorCore
import HostContract

/// The readable form of a conformance report: per plugin, a header line, then one line per check
/// (verdict, check, reason), then a summary line.
///
///     Plugins/libTitleFloor.so  com.floorkit.floor.title 1.0.0 "Title bar"
///       pass  loadable
///       FAIL  heights              heightForBadgeRow:width: returned nan for row 0 ...
///       skip  deterministic        needs heights, which did not pass
///     1 of 2 plugins passed; 1 failed (heights)
public enum ConformanceTable {
    public static func render(_ report: ConformanceReport) -> String {
        var lines: [String] = []
        let width = (ConformanceCheck.all + ConformanceCheck.onRequest).map(\.id.count).max()!
        for plugin in report.plugins {
            var header = plugin.file
            if let id = plugin.id { header += "  \(id) \(plugin.version ?? "")" }
            if let name = plugin.name { header += " \"\(name)\"" }
            lines.append(ControlCharacters.escaped(header))
            for result in plugin.results {
                let verdict = result.verdict == .fail ? "FAIL" : result.verdict.rawValue
                let padded = result.check.padded(toWidth: width)
                let line = "  \(verdict)  \(padded)  \(ControlCharacters.escaped(result.reason ?? ""))"
                lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
                // A diff or a command, under its check.
                for detail in result.details ?? [] { lines.append("        " + ControlCharacters.escaped(detail)) }
            }
            lines.append("")
        }
        let failed = report.plugins.filter { !$0.passed }
        if report.plugins.isEmpty {
            lines.append("no plugin libraries (*.so) found")
        } else {
            var summary =
                "\(report.plugins.count - failed.count) of \(report.plugins.count) plugin\(report.plugins.count == 1 ? "" : "s") passed"
            if !failed.isEmpty {
                summary +=
                    "; failed: "
                    + failed.map { plugin in
                        // A plugin can fail without a failed check: a check that did not finish is skipped.
                        let skipped = plugin.results.filter { $0.verdict == .skip }
                        let stopped = skipped.lazy.compactMap(\.reason).first {
                            $0.hasPrefix(ConformanceRunner.stoppedAfter)
                        }
                        let why =
                            plugin.failed.isEmpty
                            ? "unfinished: \(skipped.map(\.check).joined(separator: ", "))"
                                + (stopped.map { reason in
                                    "; "
                                        + (reason.firstRange(of: ": ").map { String(reason[..<$0.lowerBound]) }
                                            ?? reason)
                                } ?? "")
                            : plugin.failed.joined(separator: ", ")
                        return "\(fileName(plugin.file)) (\(why))"
                    }.joined(separator: ", ")
            }
            lines.append(ControlCharacters.escaped(summary))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

private func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
