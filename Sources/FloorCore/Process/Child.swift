// The children floorhost starts of itself, and which of the parent's options each is not given, with why.
// floorhost's ChildArguments.swift writes every option of every command; ChildArguments drops these.

import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A child of floorhost, by the command that starts it.
package enum Child: String, CaseIterable, Sendable {
    /// This program's own file: what a child runs.
    package static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// render, view, check and diff under PageSupervisor: the same command.
    case supervised
    /// view, run again in its own process to load changed plugins, where it was (--offset).
    case restart
    /// `check --share`: a share of a parallel check's pages (not `--shard K/N`, which a person gives).
    case share
    /// serve's `serve-worker`.
    case worker
    /// conform's `conform-child`, for one library.
    case conform
    /// `scan-plugin`, for one library: PluginOptions' child (listed under schema, whose options are those and --strict).
    case scan

    /// The options (and positional arguments) this child is not given, each with the reason.
    package var parentOnly: [String: String] {
        let supervisor = "the supervising parent gives its child its own (PageSupervisor)"
        let conform = "the parent acts on it, giving each child --checks or --fuzz"
        let drawings = "the parent records or compares the drawings its children send"
        let scanner = "the scanning parent acts on it and names the one library to scan (PluginScanner)"
        let server = "the server acts on it: it listens, times the worker's plugin calls and names the floors to skip"
        switch self {
        case .supervised: return ["--crash-record-fd": supervisor, "--skip-floor": supervisor]
        case .restart: return ["--offset": "the view is restarted where it was, as --offset"]
        case .share:
            return [
                "--crash-record-fd": supervisor, "--skip-floor": supervisor, "--format": "the parent writes the report",
                "--jobs": "the parent shares the pages out", "page": "each child is given its share of the pages",
                "--shard": "the parent picked the shard's pages",
            ]
        case .worker:
            return [
                "--host": server, "--port": server, "--allow-host": server, "--access-log": server,
                "--plugin-call-timeout": server,
                "--crash-record-fd": server,
                "--skip-floor": server,
            ]
        case .conform:
            return [
                "paths": "each library is given a child of its own", "--format": "the parent writes the report",
                "--timeout": "the parent kills a child that takes longer", "--include": conform, "--exclude": conform,
                "--snapshots": drawings, "--record": drawings, "--verify": drawings, "--fuzz": conform,
                "--seed": conform, "--duration": conform, "--reproduce": conform,
            ]
        case .scan:
            return [
                "--plugins": scanner, "--plugin-cache": scanner, "--plugin-scan-timeout": scanner,
                "--plugin-isolation": scanner, "--allow-insecure-plugins": scanner, "--locked": scanner,
                "--strict": "schema's parent writes the schema; a scan only loads the library",
                "--allow-field": "a scan reads no page",
            ]
        }
    }

    /// For FLOORHOST_PRINT_CHILDREN (ChildArgumentsTests): prints each child a command starts, its command
    /// line without the program and its `parentOnly`, as one JSON object on stdout, and exits 0.
    package static func printAndExit(_ children: [(Child, [String])]) -> Never {
        var printed: [String: JSONValue] = [:]
        for (child, arguments) in children {
            printed[child.rawValue] = .object([
                "arguments": .array(arguments.map { .string($0) }),
                "parentOnly": .object(child.parentOnly.mapValues { .string($0) }),
            ])
        }
        try? HostOutput.standardOutput.write(JSONValue.object(printed).serialized())
        exit(0)
    }
}
