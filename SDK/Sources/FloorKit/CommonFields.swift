import CFloorABI

/// The fields any floor may carry (common to every floor, as a section model's are): a title row and spacing.
public struct FloorHeader: Decodable, Sendable, Equatable {
    public var title: String
    /// Pins the header to the top while its floor is in view (as a table view's section header sticks).
    public var sticky: Bool

    enum CodingKeys: String, CodingKey { case title, sticky }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        sticky = try c.decodeIfPresent(Bool.self, forKey: .sticky) ?? false
    }
}

/// Space above and below a floor, in points: each from 0 to FLOOR_MAX_ROW_HEIGHT (a margin is a row).
/// Anything else refuses the floor, with the path ("margin.top: ...").
public struct FloorMargin: Decodable, Sendable, Equatable {
    public var top: Double
    public var bottom: Double

    enum CodingKeys: String, CodingKey { case top, bottom }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func side(_ key: CodingKeys) throws -> Double {
            let points = try c.decodeIfPresent(Double.self, forKey: key) ?? 0
            guard points >= 0, points <= FLOOR_MAX_ROW_HEIGHT else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "a margin is 0 to \(Int(FLOOR_MAX_ROW_HEIGHT)) points, found \(points)")
            }
            return points
        }
        top = try side(.top)
        bottom = try side(.bottom)
    }
}

/// Where a tap goes (a jump: a URL and a tracking event).
public struct Jump: Decodable, Sendable, Equatable {
    public var url: String
    public var eventId: String?
}

/// The common fields of a floor object, decoded beside the plugin's own model from the same JSON.
struct CommonFields: Decodable {
    var header: FloorHeader?
    var margin: FloorMargin?
}
