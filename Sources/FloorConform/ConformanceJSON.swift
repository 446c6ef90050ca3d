import FloorCore
import FoundationEssentials
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
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        let plugins: [JSONValue] = report.plugins.map { plugin in
            .object([
                "file": .string(plugin.file),
                "id": optional(plugin.id),
                "name": optional(plugin.name),
                "version": optional(plugin.version),
                "passed": .bool(plugin.passed),
                "checks": .array(
                    plugin.results.map { result in
                        var check: [String: JSONValue] = [
                            "check": .string(result.check), "stage": .string(result.stage.rawValue),
                            "verdict": .string(result.verdict.rawValue), "reason": optional(result.reason),
                        ]
                        if let details = result.details { check["details"] = .array(details.map { .string($0) }) }
                        return .object(check)
                    }),
            ])
        }
        let data = JSONValue.object(["passed": .bool(report.passed), "plugins": .array(plugins)]).serialized([
            .prettyPrinted, .withoutEscapingSlashes,
        ])
        // JSONSerialization escapes C0 inside strings; DEL, C1 and bidi controls it leaves raw.
        return Data(ControlCharacters.escaped(data, keepingLineBreaks: true).utf8)
            + Data("\n".utf8)
    }
}
