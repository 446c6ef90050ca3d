import CFloorABI
import FoundationEssentials
import HostContract

/// The `actions` check: every tappable item of every row of every sample is tapped, as `--tap` and
/// `check` would, and what the action selector describes must be usable by the one place that handles
/// actions: either no action (false, the sink untouched) or exactly one `jump` with a URL that has a
/// scheme ("app://item/1", "https://...") or is an absolute path ("/item/1"), an eventId that is absent or
/// non-empty, and params with non-empty, distinct keys. A tappable count above FLOOR_TAPPABLE_MAX fails.
/// A crash or a hang names the item, row and sample (the parent sees the last step).
extension BehaviourChecks {
    package static func actions(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
                for (row, rowType) in rows.enumerated() {
                    let type = plugin.rowType(rowType)
                    guard let tappable = type.tappable, let action = type.action else { continue }
                    let place = "row \(row) ('\(type.name)') of \(sample.label)"
                    plugin.step("\(tappable.name) on \(place)")
                    let count = plugin.tappable(rowType, model, row: row) ?? 0
                    if count > UInt64(FLOOR_TAPPABLE_MAX) {
                        throw ConformanceFailure(
                            "\(tappable.name) returned \(count) for \(place), more than FLOOR_TAPPABLE_MAX (\(FLOOR_TAPPABLE_MAX)); the host gives such a row no tappable items"
                        )
                    }
                    for item in 0..<count {
                        plugin.step("\(action.name) on item \(item) of \(place)")
                        guard let (returned, sink) = plugin.action(rowType, model, row: row, item: item) else {
                            continue
                        }
                        if let problem = actionProblem(returned: returned, sink) {
                            throw ConformanceFailure("\(action.name) on item \(item) of \(place): \(problem)")
                        }
                    }
                }
            }
        }
    }

    /// What is wrong with an action, or nil when it is none or a valid one.
    package static func actionProblem(returned: Bool, _ sink: ActionCollector) -> String? {
        if !sink.misuse.isEmpty {
            return
                "misused the action sink: \(sink.misuse.joined(separator: "; ")) (floor_abi.h: call jump once, with a URL, then param)"
        }
        guard returned else {
            return sink.url == nil
                ? nil
                : "called jump(\"\(sink.url!)\") but returned false; return true for an action, false (with no jump) for none"
        }
        guard let url = sink.url else { return "returned true without calling jump; an action needs a URL" }
        if url.isEmpty { return "jumped to an empty URL" }
        if url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return "jumped to \(String(reflecting: url)), which has spaces or control characters; percent-encode them"
        }
        guard let parts = URLComponents(string: url), parts.scheme != nil || url.hasPrefix("/") else {
            return
                "jumped to \(String(reflecting: url)), which is neither a URL with a scheme (app://..., https://...) nor an absolute path"
        }
        if let event = sink.eventId, event.isEmpty { return "gave an empty eventId; pass NULL for none" }
        var keys = Set<String>()
        for parameter in sink.params {
            if parameter.key.isEmpty { return "gave a param with an empty key" }
            if !keys.insert(parameter.key).inserted { return "gave the param '\(parameter.key)' twice" }
        }
        return nil
    }
}
