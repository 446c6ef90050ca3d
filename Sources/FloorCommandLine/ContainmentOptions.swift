import ArgumentParser
import FloorCore
import FloorRuntime
import FloorSession
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What a command that runs plugins on a page (render, check) needs to run under PageSupervisor: with
/// plugin isolation on, the command is first run again as a supervised child (its options, ChildArguments, plus
/// the hidden --crash-record-fd and --skip-floor; in this process forked, or in a process spawned), and this
/// process only reports how the child ended.
package struct ContainmentOptions: ParsableArguments {
    package init() {}

    @Option(
        help:
            "Seconds a plugin may spend in one call (or on one floor's rows) before that floor is left out as hung. Needs plugin isolation."
    )
    package var pluginCallTimeout: Double = 10

    @Option(name: .customLong("crash-record-fd"), help: .hidden)
    package var crashRecord: Int32?

    @Option(help: .hidden)
    package var skipFloor: [SkippedFloor] = []

    package func validate() throws {
        if !(pluginCallTimeout > 0) { throw ValidationError("--plugin-call-timeout must be more than 0 seconds") }
    }

    /// With `isolation` and not yet the child: runs `command`'s `.supervised` child and ends this process the
    /// way the child ended (by throwing its ExitCode). Otherwise returns at once. The child is this process
    /// forked where it is single-threaded (ChildLaunch), and `command`'s process spawned again otherwise. A
    /// forked child never returns from here: it runs `command` as a spawned child would, on a thread of its
    /// own (ChildProcess.continueForkedChild says why), and ends the process as `main` would. It is not
    /// parsed again: a spawned child is given every option of this process but the supervised child's
    /// `parentOnly` (ChildArguments, which ChildArgumentsTests holds to every option), and those are the
    /// launcher's own, parsed here from what a spawned child would be given (a second parse of the whole
    /// command cost 5 M instructions of each supervised render: BENCHMARKS.md, "A process's start, cheaper").
    package func superviseUnlessChild(isolation: Bool, command: some SupervisedCommand) throws {
        guard isolation, crashRecord == nil else { return }
        let child = command.childCommand(.supervised)
        let launch = ChildLaunch(program: child[0], arguments: Array(child.dropFirst()), mayFork: true)
        switch PageSupervisor.run(launch, callTimeout: pluginCallTimeout) {
        case .exited(let status): throw ExitCode(status)
        case .failed(let message):
            printError("error: \(message)")
            throw ExitCode(1)
        case .forkedChild(let options):
            ChildProcess.continueForkedChild {
                var forked = command
                do {
                    // Read back as a spawned child parses them, without the parser (SupervisorOptions); a list
                    // PageSupervisor did not write goes through it, and fails as it would there.
                    if let handed = SupervisorOptions(arguments: options) {
                        (forked.containment.crashRecord, forked.containment.skipFloor) = (
                            handed.crashRecord, handed.skipping
                        )
                    } else {
                        let given = try ContainmentOptions.parse(options)
                        (forked.containment.crashRecord, forked.containment.skipFloor) = (
                            given.crashRecord, given.skipFloor
                        )
                    }
                    try forked.run()
                } catch {
                    type(of: command).exit(withError: error)
                }
                Glibc.exit(0)
            }
        }
    }

    /// In the child: notes every plugin call of `host` in the crash record and skips the floors listed.
    package func attach(_ host: FloorHost) throws {
        guard let crashRecord else { return }
        do {
            try host.recordPluginCalls(in: crashRecord, skipping: skipFloor)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
    }

    /// Ends the command with `status` once its output is written, here and now, with what it holds
    /// (`keeping`: its result, the page) never freed: freeing the floors' models calls plugins after the
    /// output (in the child, a crash there would repeat the render), and freeing a 43,000-row page cost
    /// 2.5 % of rendering it.
    /// A supervised child first tells its supervisor the status and lets go of its output and stderr, so that the
    /// supervisor ends without waiting for the kernel to free the child's memory (CrashRecord.markFinished).
    package func finish(_ status: Int32, keeping held: some Any = ()) throws {
        if let crashRecord {
            CrashRecord.markFinished(descriptor: crashRecord, status: status)
            HostOutput.handBackForExit()
        }
        withExtendedLifetime(held) { Glibc.exit(status) }
    }
}

extension SkippedFloor: ExpressibleByArgument {}

/// A command that runs plugins on pages under PageSupervisor (render, check, view, diff): its containment
/// options, which its forked child is given the supervisor's of (`superviseUnlessChild`).
package protocol SupervisedCommand: ChildLauncher, ParsableCommand {
    var containment: ContainmentOptions { get set }
}
