import ArgumentParser
import FloorCommandLine
import FloorConform
import FloorCore
import FloorSession

/// The child half of `conform`: not for people. Loads one plugin and runs the given checks, or the given
/// fuzz cases, writing one JSON line per event to stdout for the parent (see ConformanceChild).
struct ConformChild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Child.conformCommand,
        abstract: "Run conformance checks on one plugin in this process (used by conform).",
        shouldDisplay: false)

    @Argument var library: String
    @Option var checks: String?
    @Option var fuzz: String?
    @Option var callLimit: Double = 1

    func run() throws {
        let status: Int32
        if let fuzz {
            let seeds = fuzz.split(separator: ",").compactMap { UInt64($0) }
            status = ConformanceChild.runFuzz(library: library, seeds: seeds, callLimit: callLimit)
        } else {
            status = ConformanceChild.run(
                library: library, checkIDs: (checks ?? "").split(separator: ",").map(String.init),
                callLimit: callLimit)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
