import FoundationEssentials
import HostContract

/// A sample floor's drawing as readable, stable text (DrawingText.floor): what `conform --snapshots DIR`
/// keeps in DIR/<plugin id>/<sample name>.txt and compares line by line.
package enum SnapshotText {
    /// Draws `sample` (which the samples check proved decodes and expands) at every snapshot width.
    package static func render(_ plugin: PluginUnderTest, _ sample: SampleSet.Sample, name: String)
        throws(ConformanceFailure) -> String
    {
        try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
            DrawingText.floor(
                name: name, rowTypes: rows.map { plugin.rowType($0).name },
                height: { row, width in
                    let type = plugin.rowType(rows[row])
                    plugin.step(
                        "\(type.height.name) and \(type.cell.name) on row \(row) of \(sample.label) at width \(DrawingText.number(width)), for its snapshot"
                    )
                    return plugin.height(rows[row], model, row: row, width: width)
                },
                draw: { row, width, height in
                    plugin.draw(rows[row], model, row: row, width: width, height: height)
                })
        }
    }
}

extension BehaviourChecks {
    /// The `snapshots` check's child half: draws every sample and sends the text to the parent, which
    /// records or compares it (SnapshotStore). Passes here unless a call fails; the parent judges the rest.
    package static func snapshots(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        var used: [String: Int] = [:]
        for sample in samples.samples {
            used[sample.name, default: 0] += 1
            let name = used[sample.name]! == 1 ? sample.name : "\(sample.name)-\(used[sample.name]!)"
            plugin.send(.snapshot(name: name, text: try SnapshotText.render(plugin, sample, name: name)))
        }
    }
}
