import Foundation
import Testing

/// Every option of a command that starts a child of floorhost (a supervised render, view, check or diff, a
/// check share, serve's worker, conform's child, the plugin scan, view's restart) reaches that child, or is
/// one the parent alone acts on: Sources/floorhost/ChildArguments.swift's `parentOnly`, with its reason.
/// The options come from the commands' own description (`floorhost --experimental-dump-help`), not from a
/// list here: add an option to a command and forget its children, and this fails.
///
/// Each option is given alone with a value other than its default, and FLOORHOST_PRINT_CHILDREN makes
/// floorhost print each child's command line instead of starting anything. That command line must carry the
/// option with the same value (11 and 11.0 are the same), and the child must accept it.
@Suite struct ChildArgumentsTests {
    /// One argument a command declares, as --experimental-dump-help describes it.
    struct Declared {
        let kind: String
        /// `--format` for an option or flag, the value name (`page`) for a positional argument.
        let name: String
        let valueName: String
        let defaultValue: String?
        let allValues: [String]
    }

    /// What the print-children mode said about one child.
    struct Child {
        let arguments: [String]
        let parentOnly: [String: String]
    }

    /// The values given for value forms no default or list of values describes, by value name.
    static let samples = [
        "WxH": "320x640", "Y|end": "2400", "SECTION:ROW[:ITEM]": "1:2:3", "Nrows|Sscreens": "3rows",
        "P%:Dms": "40%:300ms", "scheme://host[:port]": "https://cms.example.com", "checks": "heights",
        "skip-floor": "0:2:height:11", "K/N": "1/2",
    ]

    /// Options whose command refuses them alone (validate()), and what they need beside them.
    static let companions = [
        "--record": ["--snapshots", "3"], "--verify": ["--snapshots", "3"], "--snapshots": ["--record"],
        "--seed": ["--fuzz"],
    ]

    /// What a child's launcher adds before starting it (the library, the share's pages), by child.
    static let launcherAdds = ["scan": ["lib.so"], "conform": ["lib.so"], "share": ["--", "p.json"]]

    /// ArgumentParser's own flags, which end the program instead of configuring it.
    static let builtIn: Set = ["--help", "--version"]

    /// Every subcommand with the arguments it declares: floorhost's, and floorhost-serve's (which floorhost
    /// runs for `serve` and its worker: its `serve` replaces floorhost's entry of that name).
    func commands() throws -> [(name: String, arguments: [Declared])] {
        var byName: [String: [Declared]] = [:]
        for program in [Repo.floorhostBinary, Repo.floorhostServeBinary] {
            let dump = try run(program, ["--experimental-dump-help"])
            #expect(dump.status == 0, "\(dump.stderr)")
            let root = try #require(try jsonObject(dump.stdout)["command"] as? [String: Any])
            for command in try #require(root["subcommands"] as? [[String: Any]]) {
                let arguments = (command["arguments"] as? [[String: Any]] ?? []).compactMap { argument -> Declared? in
                    let kind = argument["kind"] as? String ?? ""
                    let valueName = argument["valueName"] as? String ?? ""
                    let preferred = (argument["preferredName"] as? [String: Any])?["name"] as? String
                    let name = kind == "positional" ? valueName : "--" + (preferred ?? valueName)
                    if Self.builtIn.contains(name) { return nil }
                    return Declared(
                        kind: kind, name: name, valueName: valueName, defaultValue: argument["defaultValue"] as? String,
                        allValues: argument["allValues"] as? [String] ?? [])
                }
                byName[try #require(command["commandName"] as? String)] = arguments
            }
        }
        return byName.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// floorhost `arguments` in print-children mode: its exit status, the children by name, and stderr.
    func children(_ arguments: [String]) throws -> (status: Int32, children: [String: Child], stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["FLOORHOST_PRINT_CHILDREN"] = "1"
        let result = try run(Repo.floorhostBinary, arguments, environment: environment)
        guard result.status == 0 else { return (result.status, [:], result.stderr) }
        var children: [String: Child] = [:]
        for (name, value) in try jsonObject(result.stdout) {
            let child = try #require(value as? [String: Any])
            children[name] = Child(
                arguments: try #require(child["arguments"] as? [String]),
                parentOnly: try #require(child["parentOnly"] as? [String: String]))
        }
        return (0, children, result.stderr)
    }

    /// A value other than the option's default: another of its values, one more than a number, a sample.
    func value(for option: Declared, file: String) -> String {
        if let other = option.allValues.first(where: { $0 != option.defaultValue }) { return other }
        if let text = option.defaultValue, let number = Double(text) {
            return text.contains(".") ? "\(number + 1)" : "\(Int(number) + 1)"
        }
        if option.valueName == "file" { return file }  // --ca-file reads its file as it is parsed
        return Self.samples[option.valueName] ?? "3"
    }

    /// Numbers as numbers, so that the child's 11.0 is the 11 given.
    func normalized(_ text: String) -> String {
        var result = ""
        var number = ""
        for character in text + " " {
            if character.isASCII && (character.isNumber || (character == "." && !number.isEmpty)) {
                number.append(character)
                continue
            }
            if !number.isEmpty {
                result += Double(number).map { String(format: "%.17g", $0) } ?? number
                number = ""
            }
            result.append(character)
        }
        return String(result.dropLast())
    }

    /// Whether `child`'s command line carries `option` given as `given` (the option, then its value).
    func carries(_ child: Child, _ option: Declared, _ given: [String]) -> Bool {
        let arguments = child.arguments
        switch option.kind {
        case "flag": return arguments.contains(option.name)
        case "positional":
            guard let split = arguments.firstIndex(of: "--") else { return false }
            return Set(given).isSubset(of: arguments[(split + 1)...])
        default:
            let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
            return arguments[..<end].indices.contains { i in
                arguments[i] == option.name && i + 1 < end && normalized(arguments[i + 1]) == normalized(given[1])
            }
        }
    }

    /// The parent-only reason for `option` in `child`; an inverted flag (`--no-x`) is listed as `--x`.
    func reason(_ child: Child, _ option: Declared) -> String? {
        child.parentOnly[option.name]
            ?? (option.name.hasPrefix("--no-") ? child.parentOnly["--" + option.name.dropFirst(5)] : nil)
    }

    @Test func everyOptionReachesEveryChildOrIsTheParentsAlone() throws {
        let folder = try TemporaryFolder("child-arguments")
        let ca = try TestCA(in: folder).certificate
        var launchers: [String] = []
        // By child: what the commands that start it declare, and what its parentOnly lists.
        var declaredByLaunchers: [String: Set<String>] = [:]
        var listed: [String: Set<String>] = [:]
        for (command, declared) in try commands() {
            let positionals = declared.filter { $0.kind == "positional" }
            // Each positional argument given as its name: page.json, old.json and new.json, paths.json, ...
            let base = [command] + positionals.map { "\($0.name).json" }
            let plain = try children(base)
            #expect(plain.status == 0, "floorhost \(base) in print-children mode: \(plain.stderr)")
            guard !plain.children.isEmpty else { continue }
            launchers.append(command)
            for (name, child) in plain.children {
                declaredByLaunchers[name, default: []].formUnion(declared.map(\.name))
                listed[name, default: []].formUnion(child.parentOnly.keys)
            }
            for option in declared {
                let given: [String]
                switch option.kind {
                case "positional": given = [option.name + ".json"]
                case "flag":
                    // An inverted flag's default half (`--plugin-isolation`) is what not giving it means; its other half is checked.
                    if option.defaultValue == option.name { continue }
                    given = [option.name]
                default: given = [option.name, value(for: option, file: ca)]
                }
                let arguments = option.kind == "positional" ? base : base + given + (Self.companions[option.name] ?? [])
                let result = try children(arguments)
                guard result.status == 0 else {
                    Issue.record(
                        "floorhost \(arguments.joined(separator: " ")) was refused (\(result.status)): \(result.stderr); give the test a sample value (samples) or what the option needs beside it (companions)"
                    )
                    continue
                }
                for (name, child) in result.children.sorted(by: { $0.key < $1.key }) {
                    if let reason = reason(child, option) {
                        #expect(
                            !child.arguments.contains(option.name),
                            "\(command) \(option.name) is the parent's alone (\(reason)) but reached \(name): \(child.arguments)"
                        )
                    } else {
                        #expect(
                            carries(child, option, given),
                            "\(command) \(given.joined(separator: " ")) does not reach its \(name) child: \(child.arguments); write it in the command's ChildOptions.write (Sources/floorhost/ChildArguments.swift, floorhost-serve/Serve.swift), or list it in \(name)'s parentOnly with the reason"
                        )
                    }
                    // The child must take what it is given.
                    let own = child.arguments + (Self.launcherAdds[name] ?? [])
                    let accepted = try children(own)
                    #expect(
                        accepted.status == 0,
                        "\(command) \(given.joined(separator: " ")): its \(name) child refuses \(own): \(accepted.stderr)"
                    )
                }
            }
        }
        // The print-children mode works: the commands known to start children are among those found.
        #expect(
            Set(["render", "view", "check", "diff", "serve", "conform", "schema"]).isSubset(of: launchers),
            "\(launchers)")
        // No stale names: what a child's parentOnly lists is an option of a command that starts it.
        for (child, names) in listed {
            let stale = names.subtracting(declaredByLaunchers[child] ?? [])
            #expect(
                stale.isEmpty, "\(child)'s parentOnly lists \(stale.sorted()), which no command that starts it declares"
            )
        }
    }
}
