import Foundation
import HostContract

/// The machine form of a conformance report (`floorhost conform --format json`): one object,
///
///     {"passed": bool, "plugins": [{"file", "id", "name", "version", "passed",
///                                   "checks": [{"check", "stage", "verdict", "reason", "details"?}]}]}
///
/// with checks in ConformanceCheck.all order (then snapshots and fuzz when asked for), `reason` null when a
/// check passed, `details` (lines: a snapshot diff, a reproduce command) only where there are some, and identity fields null
/// when the plugin did not get far enough to have them.
public enum ConformanceJSON {
    public static func render(_ report: ConformanceReport) -> Data {
        let plugins: [[String: Any]] = report.plugins.map { plugin in
            [
                "file": plugin.file,
                "id": plugin.id ?? NSNull(),
                "name": plugin.name ?? NSNull(),
                "version": plugin.version ?? NSNull(),
                "passed": plugin.passed,
                "checks": plugin.results.map { result -> [String: Any] in
                    var check: [String: Any] = [
                        "check": result.check, "stage": result.stage.rawValue, "verdict": result.verdict.rawValue,
                        "reason": result.reason ?? NSNull(),
                    ]
                    if let details = result.details { check["details"] = details }
                    return check
                },
            ]
        }
        let object: [String: Any] = ["passed": report.passed, "plugins": plugins]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        // JSONSerialization escapes C0 inside strings; DEL, C1 and bidi controls it leaves raw.
        return Data(ControlCharacters.escaped(String(decoding: data, as: UTF8.self), keepingLineBreaks: true).utf8)
            + Data("\n".utf8)
    }
}
