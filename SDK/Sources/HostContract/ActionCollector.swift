import CFloorABI

/// One parameter of a tap's action (floor_action_sink_t.param), in the order the plugin gave it.
public struct ActionParameter: Sendable, Equatable, Hashable {
    public let key: String
    public let value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// The floor_action_sink_t an action selector fills, and how it broke floor_abi.h's order (jump exactly
/// once with a non-NULL url, then params with non-NULL keys and values). Valid only inside `withSink`.
public final class ActionCollector {
    public private(set) var url: String?
    public private(set) var eventId: String?
    public private(set) var params: [ActionParameter] = []
    /// What the action selector did against floor_abi.h's order (jump once with a URL, then params).
    public private(set) var misuse: [String] = []
    private var jumped = false
    private func misused(_ what: String) { if !misuse.contains(what) { misuse.append(what) } }

    public init() {}

    public func withSink<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        var sink = floor_action_sink_t(
            host_data: Unmanaged.passUnretained(self).toOpaque(),
            jump: { sink, url, event in
                guard let me = ActionCollector.from(sink) else { return }
                guard !me.jumped else {
                    me.misused("jump called more than once")
                    return
                }
                me.jumped = true
                guard let url else {
                    me.misused("jump called with a NULL url")
                    return
                }
                me.url = String(cString: url)
                me.eventId = event.map { String(cString: $0) }
            },
            param: { sink, key, value in
                guard let me = ActionCollector.from(sink) else { return }
                guard me.jumped else {
                    me.misused("param called before jump")
                    return
                }
                guard let key, let value else {
                    me.misused("param called with a NULL \(key == nil ? "key" : "value")")
                    return
                }
                me.params.append(ActionParameter(key: String(cString: key), value: String(cString: value)))
            },
            // ABI 1.5's jump_n and param_n (docs/ABI-1.5.md, part 5) are filled when that part lands.
            jump_n: nil, param_n: nil)
        return withUnsafeMutablePointer(to: &sink) { body(UnsafeMutableRawPointer($0)) }
    }

    private static func from(_ sink: UnsafePointer<floor_action_sink_t>?) -> ActionCollector? {
        sink?.pointee.host_data.map { Unmanaged<ActionCollector>.fromOpaque($0).takeUnretainedValue() }
    }
}
