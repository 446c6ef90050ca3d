import FloorCore
import Testing

/// The options PageSupervisor hands a child, written and read back (SupervisorOptions): a forked child reads
/// them without the command line parser, and must hold what a spawned child's parse of the same words gives.
struct SupervisorOptionsTests {
    private let crashed = SkippedFloor(
        origin: FloorOrigin(page: 0, floor: 2), call: .height, failure: .crashed(signal: 11),
        said: ["describe: row 3", "Fatal error: Index out of range: file Badge.swift, line 115"])
    private let hung = SkippedFloor(origin: FloorOrigin(page: 1, floor: 0), call: .cell, failure: .hung(seconds: 2.5))
    private let exited = SkippedFloor(
        origin: FloorOrigin(page: 0, floor: 7), call: .decode, failure: .exited(status: 3))

    @Test func whatTheSupervisorWritesReadsBackAsTheParserReadsEachWord() {
        for written in [
            SupervisorOptions(crashRecord: 3, skipping: []),
            SupervisorOptions(crashRecord: 7, skipping: [crashed]),
            SupervisorOptions(crashRecord: 12, skipping: [crashed, hung, exited]),
        ] {
            let arguments = written.arguments
            #expect(
                arguments.first == "--crash-record-fd"
                    && arguments.filter { $0 == "--skip-floor" }.count
                        == written.skipping.count
            )
            let read = SupervisorOptions(arguments: arguments)
            #expect(read == written, "\(arguments)")
            // Each word as the parser converts it for a spawned child: Int32's and SkippedFloor's initializers.
            #expect(read?.crashRecord == Int32(arguments[1]))
            #expect(read?.skipping == written.skipping.map { SkippedFloor(argument: $0.argument) })
        }
    }

    @Test func aListOfAnyOtherShapeIsLeftToTheParser() {
        for arguments in [
            [], ["--crash-record-fd"], ["--crash-record-fd", "x"], ["--crash-record-fd", "99999999999"],
            ["--skip-floor", hung.argument], ["--crash-record-fd", "3", "--bogus"],
            ["--crash-record-fd", "3", "--skip-floor"], ["--crash-record-fd", "3", "--skip-floor", "0:1:nonsense:11"],
            ["--crash-record-fd", "3", "--crash-record-fd", "4"],
        ] {
            #expect(SupervisorOptions(arguments: arguments) == nil, "\(arguments)")
        }
    }
}
