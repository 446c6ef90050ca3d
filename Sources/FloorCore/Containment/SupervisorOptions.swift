/// The options PageSupervisor hands each attempt's child: `--crash-record-fd N`, where the crash record is,
/// and a `--skip-floor` for each floor to skip (SkippedFloor.argument). A spawned child parses them with the
/// rest of its command line; a forked child, which keeps its parent's parsed command, reads them back here
/// with the initializers the command line parser calls for them (`Int32`'s from a string and
/// `SkippedFloor(argument:)`), so that both hold the same values. The parser's run over these two options was
/// 1.4 M instructions of every forked child's start (BENCHMARKS.md, "A process's start: ArgumentParser and
/// the plugins' load").
package struct SupervisorOptions: Equatable, Sendable {
    package var crashRecord: Int32
    package var skipping: [SkippedFloor]

    package init(crashRecord: Int32, skipping: [SkippedFloor]) {
        (self.crashRecord, self.skipping) = (crashRecord, skipping)
    }

    /// The options as a child's command line carries them.
    package var arguments: [String] {
        ["--crash-record-fd", String(crashRecord)] + skipping.flatMap { ["--skip-floor", $0.argument] }
    }

    /// `arguments` read back: nil for a list of any other shape (a command line parser then says what is
    /// wrong with it).
    package init?(arguments: [String]) {
        var rest = arguments[...]
        guard rest.popFirst() == "--crash-record-fd", let record = rest.popFirst().flatMap({ Int32($0) }) else {
            return nil
        }
        var skipping: [SkippedFloor] = []
        while let name = rest.popFirst() {
            guard name == "--skip-floor", let floor = rest.popFirst().flatMap(SkippedFloor.init(argument:)) else {
                return nil
            }
            skipping.append(floor)
        }
        self.init(crashRecord: record, skipping: skipping)
    }
}
