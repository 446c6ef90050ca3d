import ArgumentParser
import FloorCommandLine
import FloorCore

/// floorhost-serve: `floorhost serve` and the processes it starts (its worker, and the worker's plugin scans),
/// which floorhost runs in its own place (ServeProgram). Named floorhost in usage and errors, as run.
@main
struct FloorHostServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorhost", abstract: ServeHelp.abstract, version: Version.line,
        subcommands: [Serve.self, ServeWorker.self, ScanPlugin.self])

    static func main() {
        startCommandProcess(Self.self)
        main(nil)
    }
}
