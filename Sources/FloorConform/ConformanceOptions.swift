import FloorCore
import FoundationEssentials

// `floorhost conform`'s options as the runner takes them: the checks --include and --exclude name, and the
// report in the format --format names.

extension ConformanceCheck {
    /// The ids in `--include` or `--exclude` values, each comma-separated.
    package static func ids(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace() } }.filter {
            !$0.isEmpty
        }
    }
}

extension ConformanceRunner {
    /// What is wrong with `floorhost conform`'s options taken together, in the words to print; nil when
    /// nothing is.
    package static func problem(
        timeout: Double, callLimit: Double, snapshots: String?, record: Bool, verify: Bool, fuzz: Bool,
        seed: UInt64?, duration: Double, reproduce: UInt64?, include: [String], exclude: [String]
    ) -> String? {
        if !(timeout > 0) { return "--timeout must be a positive number of seconds" }
        if !(callLimit > 0) { return "--call-limit must be a positive number of seconds" }
        if snapshots != nil && record == verify { return "--snapshots needs exactly one of --record and --verify" }
        if snapshots == nil && (record || verify) { return "--record and --verify need --snapshots DIR" }
        if !fuzz && seed != nil { return "--seed needs --fuzz" }
        if !(duration > 0) { return "--duration must be a positive number of seconds" }
        if fuzz && reproduce != nil { return "give --fuzz or --reproduce SEED, not both" }
        var runner = ConformanceRunner(childCommand: [])
        return runner.select(include: include, exclude: exclude, reproducing: false)?.message
    }

    /// Selects the checks `--include` and `--exclude` name (values comma-separated); with `reproducing`
    /// (--reproduce) only those included by name run. The error says why the names are unusable.
    package mutating func select(include: [String], exclude: [String], reproducing: Bool) -> ConformanceCheck
        .SelectionError?
    {
        switch ConformanceCheck.selection(
            include: ConformanceCheck.ids(include), exclude: ConformanceCheck.ids(exclude))
        {
        case .failure(let error): return error
        case .success(let selected):
            checks = reproducing && include.isEmpty ? [] : selected
            excluded = Set(ConformanceCheck.ids(exclude))
            return nil
        }
    }
}

extension ConformanceReport {
    /// `--format`: text (a table), json, or junit (JUnit XML).
    package enum Format: String, CaseIterable, Sendable {
        case text
        case json
        case junit
    }

    package func rendered(as format: Format) -> [UInt8] {
        switch format {
        case .text: Array(ConformanceTable.render(self).utf8)
        case .json: Array(ConformanceJSON.render(self))
        case .junit: Array(ConformanceJUnit.render(self).utf8)
        }
    }
}
