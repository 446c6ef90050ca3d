import FloorCore
import FoundationEssentials

/// One line of the conformance child protocol: the child (`floorhost conform-child`) writes one JSON
/// object per line to its protocol stream as it works, unbuffered, so that whatever it said before it
/// crashed or hung reaches the parent. The parent maps a death to the check that had started but not
/// finished, and names the last step the child announced.
package enum ChildEvent: Codable, Equatable, Sendable {
    /// The plugin's identity and the types it registered, once loading got that far.
    case plugin(id: String, name: String, version: String, floorTypes: [String], rowTypes: [String])
    /// A check begins. The parent's per-check deadline restarts here.
    case start(check: String)
    /// Where in the current check the child is: "decodeBadge: on sample 1 ('Badge' floor 'badge')".
    case step(detail: String)
    /// A plugin call that returned, but later than the per-call limit.
    case slowCall(check: String, call: String, seconds: Double)
    /// Calls into the plugin that returned during the current check so far: how many, how long in all,
    /// and the slowest one. Sent at most a few times a second, so that when a check runs past its limit
    /// the parent can tell a plugin that stopped answering from one that answers many quick calls.
    case progress(check: String, calls: Int, seconds: Double, slowestCall: String, slowestSeconds: Double)
    /// `--snapshots`: what sample `name` drew (SnapshotText), for the parent to record or compare.
    case snapshot(name: String, text: String)
    /// `--fuzz`: a fuzz case begins (its seed, in decimal, and what was mutated). The parent's deadline
    /// restarts here, and a death until the next one belongs to this case.
    case fuzzCase(seed: String, mutations: String)
    /// `--reproduce`: the case's mutant floor, abbreviated for people (FloorMutator.abbreviated).
    case fuzzMutant(json: String)
    /// A check's verdict.
    case result(check: String, verdict: ConformanceReport.Verdict, reason: String?)

    package func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    package init?(line: String) {
        guard let event = try? JSONDecoder().decode(ChildEvent.self, from: Data(line.utf8)) else { return nil }
        self = event
    }
}

extension ParentChannel {
    package func send(_ event: ChildEvent) { send(event.line()) }
}
