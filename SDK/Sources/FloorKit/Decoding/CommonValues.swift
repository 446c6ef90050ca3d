/// Where a tap goes (a jump: a URL and a tracking event). Every floor's taps go through it, so its
/// declaration, with descriptions, is written once here.
public struct Jump: Declared, Sendable, Equatable {
    /// The URL, kept as a Text (in its floor's text buffer: a feed has one a product) and made a String
    /// when read, which is when a tap's Action is made.
    public var url: String {
        get { String(urlText) }
        set { urlText = Text(newValue) }
    }
    var urlText: Text
    public var eventId: String?

    public init(url: String, eventId: String? = nil) {
        urlText = Text(url)
        self.eventId = eventId
    }

    public init(_ f: Fields) throws(DecodeError) {
        urlText = try f.text("url", "The app route or web address a tap opens.")
        eventId = try f.string("eventId", "The analytics event a tap reports.")
    }
}

/// The fields any floor may carry (common to every floor, as a section model's are): a title row and spacing.
public struct FloorHeader: Declared, Sendable, Equatable {
    public var title: String
    /// Pins the header to the top while its floor is in view (as a table view's section header sticks).
    public var sticky: Bool

    public init(_ f: Fields) throws(DecodeError) {
        title = try f.string("title", "The title's text.")
        sticky = try f.bool(
            "sticky", "Pin the title to the top of the screen while the floor is in view.", default: false)
    }
}

/// Space above and below a floor, in points: each from 0 to FLOOR_MAX_ROW_HEIGHT (a margin is a row).
/// Anything else refuses the floor, with the path ("margin.top: ...").
public struct FloorMargin: Declared, Sendable, Equatable {
    public var top: Double
    public var bottom: Double

    /// FLOOR_MAX_ROW_HEIGHT (floor_abi.h), which this file cannot import.
    static let most = 10_000.0

    public init(_ f: Fields) throws(DecodeError) {
        top = try f.number("top", "Points above the floor, 0 to 10,000.", 0...Self.most, default: 0)
        bottom = try f.number("bottom", "Points below the floor, 0 to 10,000.", 0...Self.most, default: 0)
    }
}

/// The common fields of a floor object, decoded beside the plugin's own model from the same JSON.
struct CommonFields: Declared {
    var header: FloorHeader?
    var margin: FloorMargin?

    init(_ f: Fields) throws(DecodeError) {
        header = try f.value("header", "A title row above the floor's content.")
        margin = try f.value("margin", "Space above and below the floor, in points (spacing rows).")
    }
}
