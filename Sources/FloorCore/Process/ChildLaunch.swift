/// How PageSupervisor starts each attempt's child: the one place where spawn or fork is chosen.
///
/// A spawned child is `program` run with `arguments` and the supervisor's options (`--crash-record-fd 3`,
/// `--skip-floor ...`, inserted before any `--`): a process of its own, which starts afresh. A forked child
/// is this process copied, without an exec (ForkedChild.swift): it returns from `PageSupervisor.run` as
/// `.forkedChild` with the same options (the record at its own descriptor number) and runs the command with
/// them itself. The fork is chosen when the launch allows it (`mayFork`) and this process runs one thread
/// at that moment (asked at every attempt); otherwise the child is spawned.
public struct ChildLaunch: Sendable {
    public let program: String
    public let arguments: [String]
    /// Whether the child may be this process forked: only where `program` is this process's own program,
    /// so that the fork can run what `program arguments` runs (the command again, `Child.supervised`), and
    /// nothing the command needs is held in a descriptor (a forked child keeps none beyond its standard
    /// ones and those the supervisor hands it).
    public let mayFork: Bool

    public init(program: String, arguments: [String], mayFork: Bool) {
        (self.program, self.arguments, self.mayFork) = (program, arguments, mayFork)
    }

    /// Always `program` with `arguments`, spawned.
    public static func spawning(_ program: String, _ arguments: [String]) -> ChildLaunch {
        ChildLaunch(program: program, arguments: arguments, mayFork: false)
    }

    /// Starts a child that writes to this process's stdout and stderr (stderr through a pipe with
    /// `pipingStderr`), handed each descriptor of `passing`: spawned, at the number it maps to and told
    /// `options`; forked, at its own number. Returns the child, running, in this process; nil in a forked
    /// child.
    func start(options: [String], passing: [Int32: Int32], pipingStderr: Bool) throws(ChildProcess.Failure)
        -> ChildProcess.Running?
    {
        if mayFork && ChildProcess.isSingleThreaded {
            return try ChildProcess.forkInheritingOutput(keeping: Array(passing.keys), pipingStderr: pipingStderr)
        }
        return try ChildProcess.spawnInheritingOutput(
            [program] + ChildArguments.inserting(options, into: arguments), passing: passing,
            pipingStderr: pipingStderr)
    }
}
