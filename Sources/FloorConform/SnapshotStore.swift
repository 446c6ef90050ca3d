import FloorCore
import FoundationEssentials

/// Where `conform --snapshots DIR` keeps each sample's drawing (SnapshotText), and what it does with a
/// new one: `record` writes DIR/<plugin id>/<sample name>.txt (replacing what was there); `verify`
/// compares, and a drawing that changed fails the `snapshots` check with a diff of the lines, as does a
/// sample with no recorded snapshot. Snapshot files are meant to be committed beside the plugin.
public struct SnapshotStore: Sendable {
    public enum Mode: String, Sendable { case record, verify }

    public let directory: String
    public let mode: Mode

    public init(directory: String, mode: Mode) {
        self.directory = directory
        self.mode = mode
    }

    /// The folder of one plugin's snapshots.
    public func folder(pluginID: String) -> String { directory + "/" + fileSafe(pluginID) }

    /// The verdict on what a plugin drew: (verdict, reason, details).
    package func judge(_ drawings: [(name: String, text: String)], pluginID: String) -> (
        ConformanceReport.Verdict, String?, [String]?
    ) {
        let folder = folder(pluginID: pluginID)
        switch mode {
        case .record:
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for drawing in drawings {
                    try Data(drawing.text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(drawing.name).txt"))
                }
            } catch {
                return (.fail, "cannot write the snapshots into \(folder): \(ErrorReason.of(error))", nil)
            }
            return (.pass, nil, drawings.map { "recorded \(folder)/\($0.name).txt" })
        case .verify:
            var problems: [String] = []
            var details: [String] = []
            for drawing in drawings {
                let file = "\(folder)/\(drawing.name).txt"
                guard let data = FileManager.default.contents(atPath: file) else {
                    problems.append("\(drawing.name) has no snapshot (\(file))")
                    continue
                }
                let recorded = String(decoding: data, as: UTF8.self)
                guard recorded != drawing.text else { continue }
                let hunks = LineDiff.unified(old: recorded, new: drawing.text)
                let changed = hunks.filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count
                problems.append("\(drawing.name) drew differently (\(changed) line\(changed == 1 ? "" : "s") changed)")
                details += ["--- \(file) (recorded)", "+++ \(drawing.name) (drawn now)"] + hunks
            }
            guard !problems.isEmpty else { return (.pass, nil, nil) }
            let advice =
                details.isEmpty
                ? "record them with --snapshots \(directory) --record"
                : "if the change is intended, record again with --snapshots \(directory) --record"
            return (.fail, problems.joined(separator: "; ") + "; " + advice, details.isEmpty ? nil : details)
        }
    }
}
