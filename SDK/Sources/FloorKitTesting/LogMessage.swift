import CFloorABI

/// A message a plugin logged through the host table (floor_host_t.log), during init or any call.
public struct LogMessage: Equatable, CustomStringConvertible, Sendable {
    public enum Level: String, Sendable { case info, warning, error }

    public let level: Level
    public let text: String

    public init(level: Level, text: String) {
        self.level = level
        self.text = text
    }

    init(_ level: floor_log_level_t, _ text: String) {
        switch level {
        case FLOOR_LOG_WARNING: self.level = .warning
        case FLOOR_LOG_ERROR: self.level = .error
        default: self.level = .info
        }
        self.text = text
    }

    public var description: String { "\(level.rawValue): \(text)" }
}
