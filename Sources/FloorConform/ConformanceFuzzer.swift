import FloorCore
import FoundationEssentials

/// The parent half of `conform --fuzz`: runs fuzz cases (FuzzCase) on one plugin library in batches, each
/// batch in a fresh child with the check's time limit (restarted at every case), until `duration` seconds
/// have passed or a case fails. A case fails when the child dies in it (a signal, an exit) or stops
/// answering; the verdict names the case's seed, the call it was in, what was mutated and the child's last
/// lines on stderr, and its details give the command that runs exactly that case again. Case seeds come
/// from one run seed (`--seed`, random by default), so a whole run repeats too.
public struct ConformanceFuzzer: Sendable {
    /// Where case seeds come from.
    public var seed: UInt64
    /// Seconds to keep starting batches.
    public var duration: Double
    /// Run only this case (`--reproduce SEED`), once.
    public var reproduce: UInt64?
    /// Cases a child runs before a fresh one takes over.
    public var batchSize: Int
    /// How a person runs this program, for the command in a failure's details ("floorhost").
    public var programName: String

    public init(
        seed: UInt64, duration: Double = 10, reproduce: UInt64? = nil, batchSize: Int = 64,
        programName: String = "floorhost"
    ) {
        self.seed = seed
        self.duration = duration
        self.reproduce = reproduce
        self.batchSize = batchSize
        self.programName = programName
    }

    package func run(library: String, childCommand: [String], checkTimeout: Double)
        -> (ConformanceReport.Verdict, String?, [String]?)
    {
        var random = SeededRandom(state: seed)
        let started = ProcessInfo.processInfo.systemUptime
        var cases = 0
        var batches = 0
        var lastMutant: String?
        repeat {
            let seeds = reproduce.map { [$0] } ?? (0..<batchSize).map { _ in random.next() }
            var current: (seed: String, mutations: String)?
            var mutant: String?
            var lastStep: String?
            var verdict: (ConformanceReport.Verdict, String?)?
            let outcome: ChildProcess.Outcome
            do {
                outcome = try ChildProcess.run(
                    childCommand + [library, "--fuzz", seeds.map(String.init).joined(separator: ",")],
                    timeout: checkTimeout
                ) { line in
                    guard let event = ChildEvent(line: line) else { return false }
                    switch event {
                    case .fuzzCase(let seed, let mutations):
                        if let done = current, done.seed != seed { cases += 1 }
                        current = (seed, mutations)
                        lastStep = nil
                        return true
                    case .step(let detail): lastStep = detail
                    case .fuzzMutant(let json): mutant = json
                    case .result(_, let given, let reason): verdict = (given, reason)
                    default: break
                    }
                    return false
                }
            } catch {
                return (.fail, error.message, nil)
            }
            batches += 1
            lastMutant = mutant
            if case .exited(0) = outcome.ending, let verdict {
                if verdict.0 != .pass { return (verdict.0, verdict.1, nil) }
                cases += current == nil ? 0 : 1
                continue
            }
            // The child died or hung in a case: that case is the finding.
            let how: String
            switch outcome.ending {
            case .signaled(let signal): how = "crashed with \(ChildProcess.signalName(signal))"
            case .timedOut(let seconds): how = "hung (no answer for \(PrintfFormat.string("%g", seconds)) s)"
            case .exited(let status): how = "ended the process (exit status \(status))"
            }
            let lastWords = StderrTail.lastLines(of: outcome.stderr)
            let said = lastWords.isEmpty ? "" : "; its last words on stderr: \(StderrTail.quoted(lastWords))"
            guard let current else {
                return (.fail, "the fuzz child \(how) before its first case\(said)", nil)
            }
            let place = lastStep.map { " in \($0)" } ?? ""
            let command = "\(programName) conform --reproduce \(current.seed) \(shellQuoted(library))"
            if let mutant {
                return (
                    .fail, "fuzz case \(current.seed) \(how)\(place) (mutated: \(current.mutations))\(said)",
                    ["the mutant floor: \(mutant)"]
                )
            }
            return (
                .fail,
                "fuzz case \(current.seed) \(how)\(place) (mutated: \(current.mutations))\(said); reproduce it with: \(command)",
                [
                    "reproduce: \(command)",
                    "after \(cases) cases that passed, in \(batches) batch\(batches == 1 ? "" : "es"), run seed \(seed)",
                ]
            )
        } while reproduce == nil && ProcessInfo.processInfo.systemUptime - started < duration
        let seconds = ProcessInfo.processInfo.systemUptime - started
        let summary =
            reproduce.map { "case \($0) passed" + (lastMutant.map { "; the mutant floor: \($0)" } ?? "") }
            ?? "\(cases) cases in \(batches) batch\(batches == 1 ? "" : "es") in \(PrintfFormat.string("%.1f", seconds)) s passed; run seed \(seed) (--seed \(seed) repeats this run)"
        return (.pass, nil, [summary])
    }

    private func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@".contains($0) }
            ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
