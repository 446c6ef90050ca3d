import CFloorABI

// The common values for Codable models (the slower path, FloorJSON): the same rules as their declarations
// in Decoding/CommonValues.swift, as Decodable conformances.

extension Text: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(string)
    }
}

extension Jump: Decodable {
    enum CodingKeys: String, CodingKey { case url, eventId }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try c.decode(String.self, forKey: .url), eventId: try c.decodeIfPresent(String.self, forKey: .eventId))
    }
}

extension FloorHeader: Decodable {
    enum CodingKeys: String, CodingKey { case title, sticky }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        sticky = try c.decodeIfPresent(Bool.self, forKey: .sticky) ?? false
    }
}

extension FloorMargin: Decodable {
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

extension CommonFields: Decodable {
    enum CodingKeys: String, CodingKey { case header, margin }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        header = try c.decodeIfPresent(FloorHeader.self, forKey: .header)
        margin = try c.decodeIfPresent(FloorMargin.self, forKey: .margin)
    }
}
