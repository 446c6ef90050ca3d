import HostContract

/// What a tap on an item does, as the action selector described it (the command pattern: an action object): a url,
/// an optional event id, and parameters in the order given.
public struct TestAction: Equatable, CustomStringConvertible, Sendable {
    public let url: String
    public let eventId: String?
    public let params: [ActionParameter]

    public init(url: String, eventId: String? = nil, params: [ActionParameter] = []) {
        self.url = url
        self.eventId = eventId
        self.params = params
    }

    /// The value of parameter `key` (the first, when given twice).
    public subscript(key: String) -> String? { params.first { $0.key == key }?.value }

    public var description: String {
        var parts = ["url \(url)"]
        if let eventId { parts.append("eventId \(eventId)") }
        parts += params.map { "\($0.key)=\($0.value)" }
        return parts.joined(separator: " ")
    }
}
