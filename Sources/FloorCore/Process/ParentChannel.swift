import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The child side of a ChildProcess: lines for the parent, written to the process's original stdout
/// (HostOutput) unbuffered, so that every line sent before a crash arrives. Creating it takes over the
/// process's output (HostOutput.shieldFromPlugins: fd 1 then points at stderr), so anything plugin code prints lands
/// in the parent's stderr capture instead of the protocol. Create one per process, before any plugin code runs.
package final class ParentChannel: @unchecked Sendable {
    package init() { HostOutput.shieldFromPlugins() }

    /// Sends `line` (which must not contain a newline) and a newline. A parent that is gone is not an
    /// error worth reporting here: it reads nothing more.
    package func send(_ line: String) {
        try? HostOutput.standardOutput.write(line + "\n")
    }
}
