import ArgumentParser
import FloorHost
import Foundation

struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that floor plugins behave, each in a child process.",
        discussion: """
            Runs the conformance checks (loading: entry symbol, ABI, descriptor, unique id, registration, \
            type names, selector signatures; behaviour on each plugin's sample floors: decoding, refusing \
            bad JSON, heights, determinism, drawing bounds, balanced models, time limit) on every plugin \
            library given, or found in a folder given. A crash or a hang fails the check that was running; \
            it never stops the run. Exit status: 0 when every check of every plugin passed, 1 otherwise.
            Example: floorhost conform Plugins/ --format json
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "Plugin libraries (*.so) or folders of them (searched up to 4 folders deep).")
    var paths: [String]

    @Option(help: "Output: text (a table) or json.")
    var format: Format = .text

    @Option(help: "Seconds a check may run before its child process is killed and the plugin counts as hung.")
    var timeout: Double = 10

    @Option(help: "Seconds a single plugin call may take.")
    var callLimit: Double = 1

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one plugin library or folder") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if !(callLimit > 0) { throw ValidationError("--call-limit must be a positive number of seconds") }
    }

    func run() throws {
        let runner = ConformanceRunner(childCommand: [selfExecutable(), ConformChild.configuration.commandName!],
                                       checkTimeout: timeout, callLimit: callLimit)
        let report: ConformanceReport
        do {
            report = try runner.run(paths: paths)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        switch format {
        case .text: try writeOutput(Array(ConformanceTable.render(report).utf8))
        case .json: try writeOutput(ConformanceJSON.render(report))
        }
        if !report.passed { throw ExitCode(1) }
    }
}

/// This program's own file, for re-running itself as a child.
func selfExecutable() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}
