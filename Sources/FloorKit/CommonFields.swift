/// The fields any floor may carry (the seed's `TemplateContainerModel`): a title row and spacing.
public struct FloorHeader: Decodable, Sendable, Equatable {
    public var title: String
    /// Pins the header to the top while its floor is in view (the seed's `TemplateSorbRenderProtocol`).
    public var sticky: Bool

    enum CodingKeys: String, CodingKey { case title, sticky }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        sticky = try c.decodeIfPresent(Bool.self, forKey: .sticky) ?? false
    }
}

/// Space above and below a floor, in points.
public struct FloorMargin: Decodable, Sendable, Equatable {
    public var top: Double
    public var bottom: Double

    enum CodingKeys: String, CodingKey { case top, bottom }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        top = try c.decodeIfPresent(Double.self, forKey: .top) ?? 0
        bottom = try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0
    }
}

/// Where a tap goes (the seed's `TemplateJumpModel`).
public struct Jump: Decodable, Sendable, Equatable {
    public var url: String
    public var eventId: String?
}

/// The common fields of a floor object, decoded beside the plugin's own model from the same JSON.
struct CommonFields: Decodable {
    var header: FloorHeader?
    var margin: FloorMargin?
}
