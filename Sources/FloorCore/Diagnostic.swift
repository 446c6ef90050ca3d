/// Something a person should know about a run: a plugin that did not load, a floor that did not render.
/// `message` is complete on its own (it names the file, plugin or JSON path, and for a page its
/// `line:column`); the other fields repeat those parts for machines.
///
/// Levels (ARCHITECTURE.md, "Diagnostics"): whatever makes the screen differ from what the page's JSON says
/// (an item or floor left out, a placeholder, a clamped value, an unknown floor type, a next page that did
/// not load) is an `error` and fails `check`; something ignored that changes nothing on screen is a
/// `warning` (it fails `check --strict` only); `info` (a plugin's own messages) never counts.
public struct Diagnostic: Sendable, Equatable {
    public enum Level: String, Sendable {
        case info, warning, error
    }

    /// What happened to the content the diagnostic is about, in words ("left out") and for json
    /// (`consequence`: the raw value).
    public enum Consequence: String, Sendable {
        /// A floor or an item is not on screen.
        case leftOut = "left out"
        /// A placeholder stands where the content would be.
        case placeholder = "shown as a placeholder"
        /// A field or value was not used; the rest is shown.
        case ignored
        /// A value outside its bounds was brought inside them.
        case clamped
        /// Text that cannot be shown as written (a lone surrogate) is shown with U+FFFD in its place.
        case replaced = "replaced by U+FFFD"
        /// A next page did not load: the chain stops there.
        case chainStops = "the chain stops here"
    }

    public var level: Level
    public var message: String
    /// The file concerned: a plugin library or a page.
    public var file: String?
    /// The plugin id concerned, when known.
    public var plugin: String?
    /// The JSON path concerned, e.g. "floors[3].items[2].price".
    public var path: String?
    /// What happened to the content; nil when the diagnostic is not about a page's content.
    public var consequence: Consequence?
    /// Where in the page file, when the diagnostic is about a page's content.
    public var position: SourcePosition?
    /// What it says without where (the message less its file, position and path): the part that repeats
    /// when one problem occurs at many places, which `grouped` groups by. Nil: the whole message.
    public var about: String?
    /// How many diagnostics this one stands for: more than 1 for a group (`grouped`), whose `path` and
    /// `position` are its first member's and `paths` its first members' paths.
    public var count = 1
    public var paths: [String] = []

    public init(
        _ level: Level, _ message: String, file: String? = nil, plugin: String? = nil, path: String? = nil,
        consequence: Consequence? = nil, position: SourcePosition? = nil, about: String? = nil
    ) {
        self.level = level
        self.message = message
        self.file = file
        self.plugin = plugin
        self.path = path
        self.consequence = consequence
        self.position = position
        self.about = about
    }

    /// The text form every front end prints: `error: message`.
    public var line: String { "\(level.rawValue): \(message)" }
}
