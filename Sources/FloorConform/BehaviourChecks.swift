import CFloorABI
import CGlibcExtras
import FloorCore
import FloorLayout
import FoundationEssentials
import HostContract

/// The behaviour checks: what a loaded plugin's selectors do with its own sample floors. Each returns
/// normally when the check passes and throws the first failure, named by selector, sample, row and width.
/// They run in the conformance child, where a crash or a hang costs only that process.
package enum BehaviourChecks {
    /// Widths the height sweep covers (points), and the phone and tablet widths cells are drawn at.
    package static let sweepWidths = 1...2048
    package static let probeWidths: [Double] = [1, 320, 375, 414, 768, 2048]
    package static let drawWidths: [Double] = [320, 375, 414, 768]

    package static func run(_ check: ConformanceCheck, on plugin: PluginUnderTest, samples: SampleSet)
        throws(ConformanceFailure)
    {
        switch check {
        case .validate: try validateSamples(plugin, samples)
        case .actions: try actions(plugin, samples)
        case .extend: try extendSamples(plugin, samples)
        case .snapshots: try snapshots(plugin, samples)
        case .samples: try decodeSamples(plugin, samples)
        case .refusesBadJSON: try refuseBadJSON(plugin, samples)
        case .heights: try heights(plugin, samples)
        case .deterministic: try deterministic(plugin, samples)
        case .drawingBounds: try drawingBounds(plugin, samples)
        case .balancedModels: try balancedModels(plugin, samples)
        case .schema: try SchemaCheck.run(plugin, samples)
        case .collections: try CollectionCheck.run(plugin, samples)
        default: throw ConformanceFailure("\(check.id) is not a behaviour check")
        }
    }

    /// Every sample decodes and expands into rows this plugin registered. (Its validator's verdict is the
    /// `validate` check's.)
    package static func decodeSamples(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            plugin.step("\(type.decode.name) on \(sample.label)")
            let decoded = plugin.decode(sample.floorType, sample.bytes)
            guard let model = decoded.model else {
                let why = decoded.errors.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(
                    separator: "; ")
                throw ConformanceFailure(
                    "\(type.decode.name) refused \(sample.label): \(why.isEmpty ? "no reason given" : why)")
            }
            defer { plugin.destroy(sample.floorType, model) }
            plugin.step("\(type.expand.name) on \(sample.label)")
            let rows = try plugin.expand(sample.floorType, model).get()
            if rows.isEmpty {
                throw ConformanceFailure(
                    "\(type.expand.name) listed no rows for \(sample.label); a sample should show something")
            }
        }
    }

    /// Inputs every decoder must refuse, with a reason: (description, bytes).
    package static func badInputs(for sample: SampleSet.Sample, typeName: String) -> [(String, [UInt8])] {
        var inputs: [(String, [UInt8])] = [
            ("empty input (0 bytes)", []),
            ("whitespace only", Array(" \n\t".utf8)),
            ("garbage text", Array("this is not JSON".utf8)),
            ("invalid UTF-8 bytes", [0xff, 0xfe, 0x80, 0x00, 0xc3]),
            ("an unclosed object", Array(#"{"type":"\#(typeName)","id":"x","#.utf8)),
            ("the sample cut in half", Array(sample.bytes.prefix(sample.bytes.count / 2))),
            ("an array instead of an object", Array("[]".utf8)),
            ("a number instead of an object", Array("42".utf8)),
            ("a string instead of an object", Array(#""\#(typeName)""#.utf8)),
            ("null instead of an object", Array("null".utf8)),
        ]
        // The sample with each of the plugin's own fields given a value of another type.
        if case .object(var object)? = JSONValue.parse(sample.bytes) {
            var changed = false
            for (key, value) in object where !["type", "pattern", "id"].contains(key) {
                switch value {
                case .string, .null: object[key] = .int(12345)
                default: object[key] = .string("wrongly typed")
                }
                changed = true
            }
            if changed {
                inputs.append(
                    ("the sample with every field wrongly typed", Array(JSONValue.object(object).serialized().utf8)))
            }
        }
        return inputs
    }

    package static func refuseBadJSON(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        var seen = Set<Int32>()
        for sample in samples.samples where seen.insert(sample.floorType).inserted {
            let type = plugin.floorType(sample.floorType)
            for (what, bytes) in badInputs(for: sample, typeName: type.name) {
                plugin.step("\(type.decode.name) on \(what)")
                let decoded = plugin.decode(sample.floorType, bytes)
                if let model = decoded.model {
                    plugin.destroy(sample.floorType, model)
                    throw ConformanceFailure(
                        "\(type.decode.name) accepted \(what) (\(preview(bytes))); it must return NULL after report->error"
                    )
                }
                if decoded.errors.isEmpty || decoded.errors.allSatisfy({ $0.message.isEmpty }) {
                    throw ConformanceFailure(
                        "\(type.decode.name) refused \(what) without a reason; call report->error with the JSON path and what is wrong"
                    )
                }
            }
        }
    }

    package static func heights(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
                for (row, rowType) in rows.enumerated() {
                    let type = plugin.rowType(rowType)
                    plugin.step("\(type.height.name) on row \(row) of \(sample.label), widths 1...2048")
                    for width in sweepWidths {
                        let h = plugin.height(rowType, model, row: row, width: Double(width))
                        if let consequence = UnusableHeight.consequence(of: h) {
                            throw ConformanceFailure(
                                "\(type.height.name) returned \(h) for row \(row) ('\(type.name)') of \(sample.label) at width \(width); \(consequence)"
                            )
                        }
                    }
                }
            }
        }
    }

    package static func deterministic(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            try plugin.withModel(sample) { first, rows throws(ConformanceFailure) in
                try plugin.withModel(sample) { second, _ throws(ConformanceFailure) in
                    for (row, rowType) in rows.enumerated() {
                        let type = plugin.rowType(rowType)
                        let place = "row \(row) ('\(type.name)') of \(sample.label)"
                        plugin.step("\(type.height.name) and \(type.cell.name) twice on \(place)")
                        for width in probeWidths {
                            let a = plugin.height(rowType, first, row: row, width: width)
                            let b = plugin.height(rowType, first, row: row, width: width)
                            let c = plugin.height(rowType, second, row: row, width: width)
                            if a.bitPattern != b.bitPattern || a.bitPattern != c.bitPattern {
                                throw ConformanceFailure(
                                    "\(type.height.name) gave \(a), then \(b == a ? c : b) for \(place) at width \(number(width)); the same input must give the same height"
                                )
                            }
                        }
                        for width in drawWidths {
                            let h = plugin.height(rowType, first, row: row, width: width)
                            let a = plugin.draw(rowType, first, row: row, width: width, height: h)
                            let b = plugin.draw(rowType, first, row: row, width: width, height: h)
                            let c = plugin.draw(rowType, second, row: row, width: width, height: h)
                            if a != b || a != c {
                                let other = a != b ? b : c
                                let at =
                                    zip(a, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                                    ?? min(a.count, other.count)
                                throw ConformanceFailure(
                                    "\(type.cell.name) drew differently on the same input (\(place), width \(number(width))): operation \(at + 1) was \(at < a.count ? a[at].description : "absent"), then \(at < other.count ? other[at].description : "absent")"
                                )
                            }
                        }
                    }
                }
            }
        }
    }

    package static func drawingBounds(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
                for (row, rowType) in rows.enumerated() {
                    let type = plugin.rowType(rowType)
                    plugin.step("\(type.cell.name) on row \(row) of \(sample.label)")
                    for width in drawWidths {
                        let h = plugin.height(rowType, model, row: row, width: width)
                        let operations = plugin.draw(rowType, model, row: row, width: width, height: h)
                        if let outside = operations.first(where: { !$0.isInside(width: width, height: h) }) {
                            throw ConformanceFailure(
                                "\(type.cell.name) drew \(outside) outside its \(number(width)) x \(number(h)) cell (row \(row) ('\(type.name)') of \(sample.label)); coordinates are relative to the cell and must stay inside it"
                            )
                        }
                        try itemFramesInside(plugin, rowType, model, row: row, width: width, height: h, sample.label)
                    }
                }
            }
        }
    }

    /// Every page's item frames (docs/ABI.md, "Item frames", "Paged rows") lie inside the cell and name a
    /// tappable item; a pages answer is at most FLOOR_PAGES_MAX.
    private static func itemFramesInside(
        _ plugin: PluginUnderTest, _ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int, width: Double,
        height: Double, _ label: String
    ) throws(ConformanceFailure) {
        let type = plugin.rowType(rowType)
        let pages = plugin.pages(rowType, model, row: row)
        guard pages <= UInt64(FLOOR_PAGES_MAX) else {
            throw ConformanceFailure(
                "\(type.pages?.name ?? "pages") answered \(pages) pages for row \(row) ('\(type.name)') of \(label); at most FLOOR_PAGES_MAX (\(FLOOR_PAGES_MAX)), and floorhost does not page a row that answers more"
            )
        }
        let tappable = plugin.tappable(rowType, model, row: row) ?? 0
        for page in 0..<max(1, Int(pages)) {
            for frame in plugin.itemFrames(rowType, model, row: row, width: width, height: height, page: page) {
                guard frame.isInside(width: width, height: height) else {
                    throw ConformanceFailure(
                        "\(type.cell.name) reported the frame of \(frame) outside its \(number(width)) x \(number(height)) cell (row \(row) ('\(type.name)') of \(label), page \(page)); floorhost clips it"
                    )
                }
                guard UInt64(frame.item) < tappable else {
                    throw ConformanceFailure(
                        "\(type.cell.name) reported the frame of \(frame) (row \(row) ('\(type.name)') of \(label), page \(page)), but its row has \(tappable) tappable item\(tappable == 1 ? "" : "s"); a frame names an item below what tappable answers"
                    )
                }
            }
        }
    }

    /// Decode, expand and destroy many times and watch the heap: a model that destroy does not free shows
    /// as steady growth. Two windows must both grow by more than `leakBytesPerCycle` per cycle, so one-off
    /// caches filling up do not count.
    package static let leakCycles = 400
    package static let leakBytesPerCycle = 16.0

    package static func balancedModels(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        var seen = Set<Int32>()
        for sample in samples.samples where seen.insert(sample.floorType).inserted {
            let type = plugin.floorType(sample.floorType)
            plugin.step(
                "\(type.decode.name), \(type.expand.name) and \(type.destroy.name) \(leakCycles * 2) times on \(sample.label)"
            )
            func cycles(_ n: Int) throws(ConformanceFailure) {
                // What the plugin logs is kept for the run; here it would read as a leaked model.
                for _ in 0..<n {
                    try plugin.withModel(sample) { _, _ in }
                    plugin.registry.pluginMessages.removeAll(keepingCapacity: true)
                }
            }
            try cycles(50)
            var growth: [Double] = []
            for _ in 0..<2 {
                let before = heapInUse()
                try cycles(leakCycles)
                growth.append(Double(heapInUse() - before) / Double(leakCycles))
            }
            if growth.allSatisfy({ $0 > leakBytesPerCycle }) {
                throw ConformanceFailure(
                    "the heap grew by about \(Int(growth.min()!.rounded())) bytes per decode/destroy cycle of \(sample.label) (\(leakCycles * 2) cycles); \(type.destroy.name) must free everything \(type.decode.name) allocated"
                )
            }
        }
    }

    /// Bytes the allocator has handed out and not had back (all arenas, mmap'ed blocks included).
    package static func heapInUse() -> Int {
        Int(floor_heap_in_use())
    }

    package static func preview(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return bytes.isEmpty ? "no bytes" : "\"\(text)\(bytes.count > 40 ? "..." : "")\""
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
