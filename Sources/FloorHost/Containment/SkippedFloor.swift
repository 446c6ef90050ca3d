/// A floor a previous attempt at this render crashed its plugin on: the next attempt shows a placeholder
/// in its place and says why, instead of calling the plugin again. Passed from RenderSupervisor to the
/// rendering child as `--skip-floor PAGE:FLOOR:CALL:SIGNAL`, e.g. `0:2:height:11`.
public struct SkippedFloor: Hashable, Sendable {
    public let origin: FloorOrigin
    public let call: PluginCall
    public let signal: Int32

    public init(origin: FloorOrigin, call: PluginCall, signal: Int32) {
        self.origin = origin
        self.call = call
        self.signal = signal
    }

    public init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let page = Int32(parts[0]), let floor = Int32(parts[1]), page >= 0, floor >= 0,
              let call = PluginCall(argument: parts[2]), let signal = Int32(parts[3]) else { return nil }
        self.init(origin: FloorOrigin(page: page, floor: floor), call: call, signal: signal)
    }

    public var argument: String { "\(origin.page):\(origin.floor):\(call.argument):\(signal)" }

    /// "crashed with SIGSEGV in its height calculator".
    var crash: String { "crashed with \(ChildProcess.signalName(signal)) in its \(call.selectorName)" }
}
