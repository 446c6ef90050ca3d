/// Which selector of a plugin the host is calling: what a crash report names.
public enum PluginCall: Int32, Sendable, CaseIterable {
    case decode = 1
    case validate, expand, extend, destroy, height, cell, tappable, action, pages

    /// The selector's name in a sentence: "crashed in its height calculator".
    public var selectorName: String {
        switch self {
        case .decode: "decoder"
        case .validate: "validate selector"
        case .expand: "expand selector"
        case .extend: "extend selector"
        case .destroy: "destroy selector"
        case .height: "height calculator"
        case .cell: "cell selector"
        case .tappable: "tappable-items selector"
        case .action: "action selector"
        case .pages: "pages selector"
        }
    }

    /// The name on the command line (`--skip-floor 0:2:height:11`).
    package var argument: String { String(describing: self) }

    package init?(argument: String) {
        guard let call = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = call
    }
}
