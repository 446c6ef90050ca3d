/// `--color auto|always|never`: whether text output carries ANSI styles. `auto` styles only a terminal,
/// and never when `NO_COLOR` is set to anything non-empty (https://no-color.org); `always` and `never`
/// are what they say, whatever the environment.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    public func styled(outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
