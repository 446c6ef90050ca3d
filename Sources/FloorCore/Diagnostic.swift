/// Something a person should know about a run: a plugin that did not load, a floor that did not render.
/// `message` is complete on its own (it names the file, plugin or JSON path); the other fields repeat
/// those parts for machines.
public struct Diagnostic: Sendable, Equatable {
    public enum Level: String, Sendable {
        case info, warning, error
    }

    public var level: Level
    public var message: String
    /// The file concerned: a plugin library or a page.
    public var file: String?
    /// The plugin id concerned, when known.
    public var plugin: String?
    /// The JSON path concerned, e.g. "floors[3].items[2].price".
    public var path: String?

    public init(_ level: Level, _ message: String, file: String? = nil, plugin: String? = nil, path: String? = nil) {
        self.level = level
        self.message = message
        self.file = file
        self.plugin = plugin
        self.path = path
    }
}
