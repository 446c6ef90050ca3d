import Synchronization

/// What floorhost does when a plugin ends the process itself (exit, _exit or _Exit) inside a plugin call
/// while no supervising process watches it (`--no-plugin-isolation`): it prints one line naming the plugin,
/// the selector and the floor, and ends with status 1, never with the status the plugin chose (README,
/// "Exit status"). The floorhost executable defines and exports exit, _exit and _Exit (the CPluginExit
/// target), so a plugin's calls bind to them, and they ask `floorkit_plugin_exit_caught` below first; in
/// any other program (a test runner, a benchmark) nothing calls it and libc's functions run as usual.
///
/// Under supervision (PageSupervisor, the scanning child, conform's child) the parent reads the crash record
/// and reports the exit with its status itself, so the guard lets those exits through.
public enum PluginExitGuard {
    /// Says which plugin call is in progress in this process, unsupervised, as a phrase ("plugin com.x's cell
    /// selector on floor 'b' (Badge) of page.json"); nil when none is.
    public typealias CallInProgress = @Sendable () -> String?

    private static let watched = Mutex<CallInProgress?>(nil)

    /// Names the call in progress with `callInProgress` from now on (the FloorHost whose plugins this
    /// process calls; the last one armed wins).
    public static func arm(_ callInProgress: @escaping CallInProgress) {
        watched.withLock { $0 = callInProgress }
    }

    /// The line floorhost prints when a plugin called `function`(`status`) during `call`.
    package static func line(function: String, status: Int32, call: String) -> String {
        "error: \(call) called \(function)(\(status)), which would end floorhost with that status and nothing said; floorhost stops here with status 1 (with plugin isolation, the default, the floor is left out and the rest is shown)\n"
    }

    /// Called by floorhost's exit, _exit and _Exit (plugin_exit.c) before they end the process: true when a
    /// plugin call is in progress, after printing the line that names it. Never blocks: a plugin may call
    /// exit from any thread, even one holding the lock (then nothing is named and libc's behaviour stands).
    static func caught(function: String, status: Int32) -> Bool {
        guard let callInProgress = watched.withLockIfAvailable({ $0 }) ?? nil, let call = callInProgress()
        else { return false }
        try? HostOutput.standardError.write(line(function: function, status: status, call: call))
        return true
    }
}

/// The C entry point plugin_exit.c references weakly; see PluginExitGuard.caught.
@_cdecl("floorkit_plugin_exit_caught")
public func floorkitPluginExitCaught(_ function: UnsafePointer<CChar>?, _ status: Int32) -> Int32 {
    PluginExitGuard.caught(function: function.map { String(cString: $0) } ?? "exit", status: status) ? 1 : 0
}
