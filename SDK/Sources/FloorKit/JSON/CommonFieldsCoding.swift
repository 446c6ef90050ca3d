import CFloorABI

// The common values for Codable models (the slower path, FloorJSON): the same rules as their declarations
// in Decoding/CommonValues.swift, as Decodable conformances.

extension Text: Codable {
    /// A string, with the errors decoding a String gives; from FloorJSON, kept in the decode's one text
    /// buffer (no allocation a text), from any other decoder in a buffer of its own.
    public init(from decoder: any Decoder) throws {
        self = Text(try decoder.singleValueContainer().decode(String.self), for: decoder)
    }

    /// `string` in `decoder`'s decode's text buffer when it is FloorJSON's, else in a buffer of its own.
    init(_ string: String, for decoder: any Decoder) {
        guard let tape = decoder as? TapeDecoder else {
            self.init(string)
            return
        }
        var string = string
        let buffer = tape.box.textBuffer()
        let start = string.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
        self.init(buffer: buffer, start: start, count: string.utf8.count)
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
        urlText = Text(try c.decode(String.self, forKey: .url), for: decoder)
        eventId = try c.decodeIfPresent(String.self, forKey: .eventId)
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
