import ArgumentParser
import FloorCore
import FloorText

#if canImport(Glibc)
import Glibc
#endif

/// `floorhost serve` is a program of its own, floorhost-serve, beside floorhost (as `git` runs
/// `git-remote-https`): the browser preview's server stack (NIO, Hummingbird, FloorServe) is built and loaded
/// only by whoever previews in a browser, and the README's main command builds none of it (ARCHITECTURE.md,
/// "Two executables"). floorhost's main() hands these arguments over before parsing any.
package enum ServeProgram {
    package static let name = "floorhost-serve"

    /// Whether floorhost's arguments (without the program) are floorhost-serve's: `serve ...`, its worker's
    /// `serve-worker ...`, or `help serve`.
    package static func isAsked(by arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        return first == "serve" || first == Child.workerCommand
            || (first == "help" && arguments.dropFirst().first == "serve")
    }

    /// floorhost-serve's file: beside this program's own.
    package static var file: String {
        PathText.appending(name, to: PathText.deletingLastComponent(of: Child.executable))
    }

    /// Replaces this process with floorhost-serve, given `arguments` (without the program); when it is missing or
    /// cannot run, says what to build and exits 1.
    package static func run(_ arguments: [String]) -> Never {
        let program = file
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = String(cString: strerror(errno))
        let message = """
            error: `floorhost serve` runs \(program), which cannot be run (\(reason)): build it with \
            `swift build -c release --product \(name)` (Scripts/floorhost serve ... builds it), beside floorhost.

            """
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(1)
    }
}

/// What floorhost and floorhost-serve do first, before anything else and so before any plugin is loaded: a
/// child of floorhost dies with its parent, the process's own output is kept out of plugin code's reach
/// (HostOutput), relative paths keep meaning the folder floorhost was started in (WorkingDirectory), and what
/// is read of the fonts' tables is kept between runs (FontFactsLocation). With FLOORHOST_PRINT_CHILDREN set it
/// only prints the children `root`'s command would start.
package func startCommandProcess(_ root: any ParsableCommand.Type) {
    if ProcessEnvironment.value("FLOORHOST_PRINT_CHILDREN") != nil { printChildrenAndExit(root) }
    ChildProcess.dieWithParent()
    ProcessMemory.tuneMalloc()
    HostOutput.claim()
    WorkingDirectory.capture()
    FontFactsCache.use(directory: FontFactsLocation.directory)
}
