import CFloorABI

/// A fill's tone (floor_abi.h FLOOR_TONE_*), as every backend names it. An unknown value is `.subtle`, so a
/// plugin built against a later minor with more tones still draws something plausible.
public enum Tone: UInt32 {
    case subtle, muted, accent

    public init(_ raw: UInt32) {
        switch raw {
        case FLOOR_TONE_MUTED: self = .muted
        case FLOOR_TONE_ACCENT: self = .accent
        default: self = .subtle
        }
    }

    /// The name JSON output and HTML classes use.
    public var name: String {
        switch self {
        case .subtle: "subtle"
        case .muted: "muted"
        case .accent: "accent"
        }
    }
}
