/// The arguments floorhost gives a child of itself, written from the parent's parsed options, option by
/// option (floorhost's ChildArguments.swift says what each command writes and what each child must not
/// get). A name in `parentOnly` is dropped: the parent alone acts on that option, for the reason given.
/// Options first, then `--` and the positional arguments, so that a page named `-x.json` stays a page;
/// a launcher that adds its own options puts them before the `--` (`inserting`).
package struct ChildArguments: Sendable {
    /// What this child does not get, by option name (`--format`) or positional name (`page`), with why.
    package let parentOnly: [String: String]
    package private(set) var options: [String] = []
    package private(set) var positional: [String] = []

    package init(parentOnly: [String: String] = [:]) {
        self.parentOnly = parentOnly
    }

    /// The options, then `--` and the positional arguments when there are any.
    package var arguments: [String] { positional.isEmpty ? options : options + ["--"] + positional }

    /// `name value`, when there is a value (an optional left out is not written).
    package mutating func option(_ name: String, _ value: (some CustomStringConvertible)?) {
        guard parentOnly[name] == nil, let value else { return }
        options += [name, value.description]
    }

    /// `name value` for each pair with a value, in order.
    package mutating func options(_ pairs: KeyValuePairs<String, (any CustomStringConvertible)?>) {
        for (name, value) in pairs { option(name, value.map(\.description)) }
    }

    /// `name value` once for each value.
    package mutating func repeated(_ name: String, _ values: [some CustomStringConvertible]) {
        for value in values { option(name, value) }
    }

    /// `name` when on; for a flag with an inversion, `inversion` when off (so the child never relies on
    /// its own default).
    package mutating func flag(_ name: String, _ on: Bool, inversion: String? = nil) {
        guard parentOnly[name] == nil else { return }
        if on { options.append(name) } else if let inversion { options.append(inversion) }
    }

    /// `name` for each flag that is on.
    package mutating func flags(_ pairs: KeyValuePairs<String, Bool>) {
        for (name, on) in pairs { flag(name, on) }
    }

    /// A positional argument (by the name the command's help gives it), once for each value.
    package mutating func argument(_ name: String, _ values: String...) { argument(name, values) }

    package mutating func argument(_ name: String, _ values: [String]) {
        guard parentOnly[name] == nil else { return }
        positional += values
    }

    /// `command` with `options` added before its `--` (after everything when it has none): how a launcher
    /// adds the options only it knows (`--crash-record-fd`, `--skip-floor`, `--page-ordinal`).
    package static func inserting(_ options: [String], into command: [String]) -> [String] {
        let split = command.firstIndex(of: "--") ?? command.endIndex
        return Array(command[..<split]) + options + command[split...]
    }
}
