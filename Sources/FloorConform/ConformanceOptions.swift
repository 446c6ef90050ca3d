import Foundation

// `floorhost conform`'s options as the runner takes them: the checks --include and --exclude name, and the
// report in the format --format names.

extension ConformanceCheck {
    /// The ids in `--include` or `--exclude` values, each comma-separated.
    package static func ids(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter {
            !$0.isEmpty
        }
    }
}

extension ConformanceRunner {
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
