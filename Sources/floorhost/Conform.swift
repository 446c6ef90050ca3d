import ArgumentParser
import FloorCommandLine
import FloorConform
import FloorSession
import FoundationEssentials

struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform", abstract: "Check that floor plugins behave, each in a child process.",
        discussion: """
            Runs the conformance checks (loading: entry symbol, ABI, descriptor, unique id, registration, \
            type names, selector signatures; behaviour on each plugin's sample floors: decoding, refusing \
            bad JSON, heights, determinism, drawing bounds, balanced models, validation, actions, extending \
            by a next page, time limit) on every plugin library given, or found in a folder given. A crash \
            or a hang fails the check that was running, quoting the plugin's last lines on stderr; it never \
            stops the run. Exit status: 0 when every check of every plugin passed, 1 otherwise.
            Examples:
              floorhost conform Plugins/ --format junit > conform.xml
              floorhost conform libX.so --include actions,extend
              floorhost conform libX.so --snapshots Snapshots --record
              floorhost conform libX.so --snapshots Snapshots --verify
              floorhost conform libX.so --fuzz --duration 60 --seed 42
              floorhost conform --reproduce SEED libX.so   (a case --fuzz printed)
            """)

    typealias Format = ConformanceReport.Format

    @Argument(help: "Plugin libraries (*.so) or folders of them (searched up to 4 folders deep).")
    var paths: [String]

    @Option(help: "Output: text (a table), json, or junit (JUnit XML, for CI systems).")
    var format: Format = .text

    @Option(
        help:
            "Seconds a check (or a fuzz case) may run before its child process is killed and the plugin counts as hung."
    )
    var timeout: Double = 10

    @Option(help: "Seconds a single plugin call may take.")
    var callLimit: Double = 1

    @Option(
        help: ArgumentHelp(
            "Run and report only these checks (comma-separated, or the option repeated), and run the checks they need unreported.",
            valueName: "checks"))
    var include: [String] = []

    @Option(
        help: ArgumentHelp(
            "Do not run these checks (comma-separated, or repeated); checks that need one run as if it had passed.",
            valueName: "checks"))
    var exclude: [String] = []

    @Option(
        help: ArgumentHelp(
            "Folder of drawing snapshots: each sample's canvas calls at widths 320, 375 and 414, as text in DIR/<plugin id>/<sample>.txt. Needs --record or --verify.",
            valueName: "dir"))
    var snapshots: String?

    @Flag(help: "With --snapshots: write the snapshots (replacing those there).")
    var record = false

    @Flag(help: "With --snapshots: compare with the snapshots; a drawing that changed fails `snapshots` with a diff.")
    var verify = false

    @Flag(
        help:
            "Also fuzz each plugin: mutated sample floors (types swapped, fields removed, huge and non-finite numbers, long and CJK strings, deep nesting) at random widths, in batches, each in a child with --timeout. A failure prints its seed and the command that reproduces it."
    )
    var fuzz = false

    @Option(help: "With --fuzz: the run's seed (a whole number); the same seed runs the same cases.")
    var seed: UInt64?

    @Option(help: "With --fuzz: seconds to keep fuzzing each plugin.")
    var duration: Double = 10

    @Option(
        help: ArgumentHelp(
            "Run the one fuzz case with this seed (as a fuzz failure printed it), and only the checks --include names.",
            valueName: "seed"))
    var reproduce: UInt64?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one plugin library or folder") }
        let problem = ConformanceRunner.problem(
            timeout: timeout, callLimit: callLimit, snapshots: snapshots, record: record, verify: verify,
            fuzz: fuzz, seed: seed, duration: duration, reproduce: reproduce, include: include, exclude: exclude)
        if let problem { throw ValidationError(problem) }
    }

    func run() throws {
        var runner = ConformanceRunner(
            childCommand: childCommand(.conform), checkTimeout: timeout, callLimit: callLimit)
        // --reproduce runs the one case, and only the checks asked for by name. (validate() tried the names.)
        _ = runner.select(include: include, exclude: exclude, reproducing: reproduce != nil)
        if let snapshots { runner.snapshots = SnapshotStore(directory: snapshots, mode: record ? .record : .verify) }
        if fuzz || reproduce != nil {
            runner.fuzz = ConformanceFuzzer(
                seed: seed ?? UInt64.random(in: 1...UInt64(Int64.max)), duration: duration, reproduce: reproduce)
        }
        let report: ConformanceReport
        do {
            report = try runner.run(paths: paths)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        try writeOutput(report.rendered(as: format))
        if !report.passed { throw ExitCode(1) }
    }
}

extension ConformanceReport.Format: CaseArgument {}
