import CFloorABI
import FloorLayout
import FloorRuntime
import FoundationEssentials
import HostContract

/// The child half of `conform --fuzz`: runs fuzz cases, each given by its seed, on one loaded plugin.
/// A case picks a sample, mutates it (FloorMutator) and makes the calls a page render makes with it, at
/// three widths (one random from 1 to 2048, one of 1, 320, 375, 414 and 2048, and 375): decode, validate,
/// expand, each row's height, cell, tappable items and every item's action (at most `rowLimit` rows and
/// `itemLimit` items a row), then extend with a second copy of the mutant, expand again, and destroy.
/// Before every call it tells the parent which call it makes on what, so a crash names it. What the host
/// refuses at the boundary (a decoder's refusal, an invalid floor, a row type it does not own) ends the
/// case there, as it would end the floor on a page.
package enum FuzzCase {
    package static let rowLimit = 300
    package static let itemLimit = 64

    /// The same seed gives the same case, on any machine, for the same plugin and samples.
    /// `showMutant` sends the mutant, abbreviated, as a step first (for `--reproduce`).
    package static func run(seed: UInt64, plugin: PluginUnderTest, samples: SampleSet, showMutant: Bool = false) {
        // Announced before the mutant is made, so that even a slow mutation is this case's, not the last one's.
        plugin.send(.fuzzCase(seed: String(seed), mutations: "(the mutant was being made)"))
        var random = SeededRandom(state: seed)
        let sample = random.pick(samples.samples)
        guard let (mutant, mutations) = FloorMutator.mutate(sample.bytes, &random) else {
            plugin.send(.fuzzCase(seed: String(seed), mutations: "none (\(sample.label) is not JSON)"))
            return
        }
        let widths = [Double(random.int(1...2048)), random.pick([1.0, 320, 375, 414, 2048]), 375]
        plugin.send(.fuzzCase(seed: String(seed), mutations: "\(mutations), in \(sample.label)"))
        if showMutant { plugin.send(.fuzzMutant(json: FloorMutator.abbreviated(mutant))) }
        // Exactly the bytes a page would give the plugin: the mutant as a floor of a page that scans.
        let page = Array(#"{"floors":["#.utf8) + mutant + Array("]}".utf8)
        guard let spec = try? PageScanner.scan(page), let floor = spec.floors.first else { return }
        let bytes = Array(page[floor.bytes])
        let type = plugin.floorType(sample.floorType)
        let what = "fuzz case \(seed)"

        plugin.step("\(type.decode.name) on \(what)")
        let decoded = plugin.decode(sample.floorType, bytes)
        guard let model = decoded.model else { return }
        // A model that comes with errors is destroyed and the floor left out, as on a page.
        guard decoded.errors.isEmpty else {
            plugin.step("\(type.destroy.name) on \(what)")
            plugin.destroy(sample.floorType, model)
            return
        }
        defer {
            plugin.step("\(type.destroy.name) on \(what)")
            plugin.destroy(sample.floorType, model)
        }
        if let validate = type.validate {
            plugin.step("\(validate.name) on \(what)")
            if plugin.validate(sample.floorType, model)?.valid == false { return }
        }
        plugin.step("\(type.expand.name) on \(what)")
        guard let rows = try? plugin.expand(sample.floorType, model).get() else { return }
        calls(on: rows, from: 0, model: model, widths: widths, what: what, plugin)

        guard let extend = type.extend else { return }
        plugin.step("\(type.decode.name) on \(what) (its next-page copy)")
        guard let next = plugin.decode(sample.floorType, bytes).model else { return }
        plugin.step("\(extend.name) on \(what) with its next-page copy")
        let claim = plugin.extend(sample.floorType, model, with: next)?.result
        plugin.step("\(type.destroy.name) on \(what) (its next-page copy)")
        plugin.destroy(sample.floorType, next)
        let leading = Int(clamping: claim?.unchanged_leading ?? 0)
        plugin.step("\(type.expand.name) on \(what) after \(extend.name)")
        guard
            let extended = try? plugin.expand(
                sample.floorType, model, reusable: min(leading, rows.count), previous: rows
            ).get()
        else { return }
        calls(
            on: extended, from: min(leading, rows.count, extended.count), model: model, widths: [375], what: what,
            plugin)
    }

    /// Heights, cells, tappable items and actions of `rows[from...]` (at most rowLimit of them).
    private static func calls(
        on rows: [Int32], from first: Int, model: UnsafeMutableRawPointer, widths: [Double], what: String,
        _ plugin: PluginUnderTest
    ) {
        for (row, rowType) in rows.enumerated().dropFirst(first).prefix(rowLimit) {
            let type = plugin.rowType(rowType)
            for width in widths {
                plugin.step("\(type.height.name) on row \(row) of \(what) at width \(DrawingText.number(width))")
                let height = plugin.height(rowType, model, row: row, width: width)
                // No height at all: floorhost shows a placeholder and never calls the cell (UnusableHeight).
                guard UnusableHeight(height) == nil else { continue }
                plugin.step("\(type.cell.name) on row \(row) of \(what) at width \(DrawingText.number(width))")
                _ = plugin.draw(rowType, model, row: row, width: width, height: min(height, Adapter.maxRowHeight))
            }
            guard let tappable = type.tappable, let action = type.action else { continue }
            plugin.step("\(tappable.name) on row \(row) of \(what)")
            let count = plugin.tappable(rowType, model, row: row) ?? 0
            guard count <= UInt64(FLOOR_TAPPABLE_MAX) else { continue }
            for item in 0..<min(count, UInt64(itemLimit)) {
                plugin.step("\(action.name) on item \(item) of row \(row) of \(what)")
                _ = plugin.action(rowType, model, row: row, item: item)
            }
        }
    }
}
