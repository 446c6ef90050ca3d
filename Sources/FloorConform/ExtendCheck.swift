import FloorCore
import FoundationEssentials
import HostContract

/// The `extend` check: each sample of a floor type with an extender (ABI 1.1, optional) is continued by a
/// next-page copy of itself, twice, as a next page's floor with the same id would continue it:
/// - by the copy as it is: every item with an `id` is a duplicate, so each must be reported (dropped) and
///   the floor's rows must stay as they were;
/// - by the copy with every item id changed: the new items must add rows.
/// Both times the extender's claim of unchanged leading and trailing rows must be true: those rows keep
/// their row type, height and drawing (at 375 points). A type without an extender passes.
extension BehaviourChecks {
    /// One row as the host would see it, to tell whether an extend changed it.
    package struct RowLook: Equatable {
        package let type: Int32
        package let height: Double
        package let drawing: [RecordingCanvas.Operation]
        package static func == (a: RowLook, b: RowLook) -> Bool {
            a.type == b.type && a.height.bitPattern == b.height.bitPattern && a.drawing == b.drawing
        }
    }

    package static let extendWidth = 375.0

    package static func extendSamples(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            guard let extend = type.extend else { continue }
            let identified = identifiedItems(sample.bytes)
            for renamed in [false, true] {
                let copy = renamed ? renamingItems(sample.bytes) : sample.bytes
                let which = renamed ? "a copy of \(sample.label) with new item ids" : "a copy of \(sample.label)"
                try plugin.withModel(sample) { model, rows throws(ConformanceFailure) in
                    func look(_ rows: [Int32]) -> [RowLook] {
                        rows.enumerated().map { row, rowType in
                            let height = plugin.height(rowType, model, row: row, width: extendWidth)
                            return RowLook(
                                type: rowType, height: height,
                                drawing: plugin.draw(rowType, model, row: row, width: extendWidth, height: height))
                        }
                    }
                    plugin.step("rows of \(sample.label) before \(extend.name)")
                    let before = look(rows)
                    plugin.step("\(type.decode.name) on \(which)")
                    let decoded = plugin.decode(sample.floorType, copy)
                    guard let next = decoded.model else {
                        let why =
                            decoded.errors.first.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }
                            ?? "no reason given"
                        throw ConformanceFailure(
                            "\(type.decode.name) refused \(which) (\(why)); a next page's floor is decoded on its own, so it must decode"
                        )
                    }
                    plugin.step("\(extend.name) with \(which)")
                    let outcome = plugin.extend(sample.floorType, model, with: next)
                    plugin.step("\(type.destroy.name) on \(which)")
                    plugin.destroy(sample.floorType, next)
                    guard let (reported, claim) = outcome else { return }
                    let leading = Int(clamping: claim.unchanged_leading)
                    let trailing = Int(clamping: claim.unchanged_trailing)
                    plugin.step("\(type.expand.name) on \(sample.label) after \(extend.name) with \(which)")
                    let now = try plugin.expand(
                        sample.floorType, model, reusable: min(leading, rows.count), previous: rows
                    ).get()
                    plugin.step("rows of \(sample.label) after \(extend.name) with \(which)")
                    let after = look(now)

                    if !renamed && reported.count < identified {
                        throw ConformanceFailure(
                            "\(extend.name) with \(which) reported \(reported.count) dropped duplicate\(reported.count == 1 ? "" : "s"), but all \(identified) items have ids already in the floor; report each with report->error (its path, e.g. items[0]) and drop it"
                        )
                    }
                    if !renamed && identified > 0 && after != before {
                        throw ConformanceFailure(
                            "\(extend.name) with \(which), whose items are all duplicates, changed the floor's rows (\(before.count) before, \(after.count) after); duplicates are dropped"
                        )
                    }
                    if renamed && identified > 0 && after.count <= before.count {
                        throw ConformanceFailure(
                            "\(extend.name) with \(which) added no rows (\(before.count) before, \(after.count) after); a next page's new items are appended"
                        )
                    }
                    if leading + trailing > min(before.count, after.count) {
                        throw ConformanceFailure(
                            "\(extend.name) with \(which) claimed \(leading) leading and \(trailing) trailing unchanged rows, but the floor had \(before.count) rows and now has \(after.count); the two together may not exceed the smaller"
                        )
                    }
                    func wrong(_ old: Int, _ new: Int, _ end: String) -> ConformanceFailure {
                        ConformanceFailure(
                            "\(extend.name) with \(which) claimed \(leading) leading and \(trailing) trailing unchanged rows, but row \(old) (one of the claimed \(end) rows\(old == new ? "" : ", now row \(new)")) changed: \(difference(before[old], after[new])); the host keeps claimed rows as they were"
                        )
                    }
                    if let row = (0..<leading).first(where: { before[$0] != after[$0] }) {
                        throw wrong(row, row, "leading")
                    }
                    if let k = (0..<trailing).first(where: {
                        before[before.count - 1 - $0] != after[after.count - 1 - $0]
                    }) {
                        throw wrong(before.count - 1 - k, after.count - 1 - k, "trailing")
                    }
                }
            }
        }
    }

    /// Items of the floor's `items` array that carry an `id`: the duplicates a copy must have reported.
    package static func identifiedItems(_ bytes: [UInt8]) -> Int {
        guard case .array(let items)? = JSONValue.parse(bytes)?["items"] else { return 0 }
        return items.filter { $0["id"] != nil }.count
    }

    /// The floor with every `items[i].id` given a suffix, so that a copy of it brings new items.
    package static func renamingItems(_ bytes: [UInt8]) -> [UInt8] {
        guard case .object(var object)? = JSONValue.parse(bytes), case .array(let items)? = object["items"] else {
            return bytes
        }
        object["items"] = .array(
            items.map { item in
                guard case .object(var members) = item, let id = members["id"] else { return item }
                members["id"] = .string(idText(id) + "-next")
                return .object(members)
            })
        return Array(JSONValue.object(object).serialized(.withoutEscapingSlashes).utf8)
    }

    /// An item's `id` as text, as string interpolation printed the value JSONSerialization had read: a
    /// string as itself, a number in its shortest form, a boolean as 1 or 0 (an NSNumber's description).
    private static func idText(_ id: JSONValue) -> String {
        switch id {
        case .string(let text): text
        case .int(let value): String(value)
        case .double(let value): "\(value)"
        case .bool(let value): value ? "1" : "0"
        default: id.serialized()
        }
    }

    private static func difference(_ a: RowLook, _ b: RowLook) -> String {
        if a.type != b.type { return "its row type id went from \(a.type) to \(b.type)" }
        if a.height.bitPattern != b.height.bitPattern { return "its height went from \(a.height) to \(b.height)" }
        let at =
            zip(a.drawing, b.drawing).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(a.drawing.count, b.drawing.count)
        return
            "drawing operation \(at + 1) was \(at < a.drawing.count ? a.drawing[at].description : "absent"), now \(at < b.drawing.count ? b.drawing[at].description : "absent")"
    }
}
