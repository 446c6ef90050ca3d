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
                ActionCollector.from(sink)?.jump(url.map { String(cString: $0) }, event.map { String(cString: $0) })
            },
            param: { sink, key, value in
                ActionCollector.from(sink)?.param(key.map { String(cString: $0) }, value.map { String(cString: $0) })
            },
            // ABI 1.5 (docs/ABI-1.5.md, part 5): the same with lengths, so a string holding U+0000 arrives whole.
            jump_n: { sink, url, urlLength, event, eventLength in
                ActionCollector.from(sink)?.jump(text(url, urlLength), text(event, eventLength))
            },
            param_n: { sink, key, keyLength, value, valueLength in
                ActionCollector.from(sink)?.param(text(key, keyLength), text(value, valueLength))
            })
        return withUnsafeMutablePointer(to: &sink) { body(UnsafeMutableRawPointer($0)) }
    }

    /// jump, by either entry point: exactly once, first, with a url.
    private func jump(_ url: String?, _ event: String?) {
        guard !jumped else {
            misused("jump called more than once")
            return
        }
        jumped = true
        guard let url else {
            misused("jump called with a NULL url")
            return
        }
        self.url = url
        eventId = event
    }

    /// param, by either entry point: after jump, key and value not NULL.
    private func param(_ key: String?, _ value: String?) {
        guard jumped else {
            misused("param called before jump")
            return
        }
        guard let key, let value else {
            misused("param called with a NULL \(key == nil ? "key" : "value")")
            return
        }
        params.append(ActionParameter(key: key, value: value))
    }

    private static func from(_ sink: UnsafePointer<floor_action_sink_t>?) -> ActionCollector? {
        sink?.pointee.host_data.map { Unmanaged<ActionCollector>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// `length` bytes of UTF-8 at `bytes` as a String, U+0000 included (invalid bytes become U+FFFD); nil for NULL.
private func text(_ bytes: UnsafePointer<CChar>?, _ length: UInt64) -> String? {
    guard let bytes else { return nil }
    let count = Int(clamping: length)
    return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}
