/// What a tap does (the command pattern: an action object, handled in one place): a jump to `url`, tracked as `eventId`, with parameters.
/// Plugins describe actions; the host performs every one of them in one place.
public struct Action: Sendable, Equatable {
    public var url: String
    public var eventId: String?
    public var params: [String: String]

    public init(url: String, eventId: String? = nil, params: [String: String] = [:]) {
        self.url = url
        self.eventId = eventId
        self.params = params
    }

    /// The action for a CMS `jump` object, with extra parameters.
    public init(_ jump: Jump, params: [String: String] = [:]) {
        self.init(url: jump.url, eventId: jump.eventId, params: params)
    }
}
