import ArgumentParser
import FloorCore
import HostContract

// How a command of floorhost (or floorhost-serve) speaks: its output to the process's own stdout, its
// messages to stderr (HostOutput keeps both out of plugin code's reach), and the exit status a failure ends it
// with.

/// One line to stderr, control characters escaped. A stderr that cannot be written to is no reason to stop.
package func printError(_ line: String) {
    try? HostOutput.standardError.write(ControlCharacters.escaped(line) + "\n")
}

/// `body`'s value; when it throws, the input was unusable (a page or folder that cannot be used): says why on
/// stderr and ends the command with status 2.
package func unusableInput<Value>(_ body: () throws -> Value) throws -> Value {
    do {
        return try body()
    } catch {
        printError("error: \(error)")
        throw ExitCode(2)
    }
}

/// A command's output, to the process's own stdout; a write that fails (a closed descriptor, a full disk)
/// ends the command with status 1 and says so on stderr.
package func writeOutput(_ output: some Collection<UInt8>) throws {
    try writeOutput { try $0.write(output) }
}

/// What `write` writes to the process's own stdout (handed to it), failing as `writeOutput(_:)` does.
package func writeOutput(_ write: (HostOutput) throws -> Void) throws {
    do {
        try write(HostOutput.standardOutput)
    } catch {
        printError("error: \((error as? HostOutput.Failure)?.message ?? "\(error)")")
        throw ExitCode(1)
    }
}

/// `line` and a newline, as output.
package func writeOutput(line: String) throws { try writeOutput(Array((line + "\n").utf8)) }
