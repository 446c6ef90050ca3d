import CFloorABI
import FloorCore
import HostContract

/// What a tap on a row's item does, as the plugin described it (the command pattern: a tap becomes an action object, handled in one place). The host
/// handles every action in one place (`Adapter.tap`), whichever plugin produced it.
public struct TapAction: Sendable, Equatable {
    public let section: Int
    public let row: Int
    public let item: Int
    public let floor: String
    public let type: String
    public let url: String
    public let eventId: String?
    /// In the order the plugin gave them.
    public let params: [Parameter]

    public typealias Parameter = ActionParameter
}

/// Why a tap did nothing, in a sentence.
public struct NoAction: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

extension Adapter {
    /// How many items of row `r` a tap can hit (0 when its row type registered no action). Called for
    /// every row of the json output, so the typed mode calls the checked function pointer directly.
    public func tappableItems(row r: Int) -> Int { tappableAnswer(row: r).count }

    /// How many items of row `r` a tap can hit, and, when the plugin answered past FLOOR_TAPPABLE_MAX (which
    /// gives the row none), the plugin's error in words: said once per row type among the diagnostics, and
    /// by `tap` whenever it is why a tap found no item.
    private func tappableAnswer(row r: Int) -> (count: Int, pluginError: String?) {
        let row = rows[r]
        // A row shown as a placeholder (its height calculator gave no height) has nothing to tap.
        guard row.unusableHeight == nil else { return (0, nil) }
        let model = models[Int(row.section)]
        let index = UInt64(row.index)
        let record = registry.crashRecord
        let count: UInt64 = record.withPluginCall(.tappable, on: origins[Int(row.section)]) {
            switch dispatch {
            case .typed:
                let entry = registry.dispatch[Int(row.type)]
                return entry.tappable.map { $0(entry.context, model, index) } ?? 0
            case .ffi:
                // Field by field, as drawCell does.
                let type = Int(row.type)
                let context = registry.invokers[type].context
                guard let tappable = registry.invokers[type].tappable,
                    case .uint(let answer)? = try? tappable.perform(.pointer(context), .pointer(model), .uint(index))
                else { return 0 }
                return answer
            }
        }
        guard count > UInt64(FLOOR_TAPPABLE_MAX) else { return (Int(count), nil) }
        return (0, tappableOverflow(row: r, count: count))
    }

    /// Every row's `tappableItems(row:)`, or -1 where its row type has no tappable selector: the same plugin
    /// calls, made in one loop that reads the tables and models through locals and the rows through a buffer
    /// (the json output asks it of every row: 43,000 on the benchmark page).
    public func tappableCounts() -> [Int32] {
        let types = registry.rowTypes
        guard dispatch == .typed, rows.count > 0 else {
            return (0..<rows.count).map { r in
                types[Int(rows[r].type)].tappable != nil ? Int32(tappableItems(row: r)) : -1
            }
        }
        let table = registry.dispatch
        let models = self.models
        let origins = self.origins
        let record = registry.crashRecord
        var counts = [Int32](repeating: -1, count: rows.count)
        var overflows: [(row: Int, count: UInt64)] = []
        record.withPluginCall(.tappable, on: origins[Int(rows[0].section)]) {
            rows.readingRows { rows in
                var section = rows[0].section
                for r in 0..<rows.count {
                    let row = rows[r]
                    guard let tappable = table[Int(row.type)].tappable else { continue }
                    // A row shown as a placeholder (its height calculator gave no height) has nothing to tap.
                    guard row.unusableHeight == nil else {
                        counts[r] = 0
                        continue
                    }
                    if row.section != section {
                        section = row.section
                        record.on(origins[Int(section)])
                    }
                    record.step(r)
                    let count = tappable(table[Int(row.type)].context, models[Int(section)], UInt64(row.index))
                    if count <= UInt64(FLOOR_TAPPABLE_MAX) {
                        counts[r] = Int32(count)
                    } else {
                        counts[r] = 0
                        overflows.append((r, count))
                    }
                }
            }
        }
        for overflow in overflows { _ = tappableOverflow(row: overflow.row, count: overflow.count) }
        return counts
    }

    /// A tappable count past FLOOR_TAPPABLE_MAX (UINT64_MAX is usually a C `return -1`), which gives the row
    /// no items: the plugin's error in words, reported once per row type.
    private func tappableOverflow(row r: Int, count: UInt64) -> String {
        let row = rows[r]
        let type = registry.rowTypes[Int(row.type)]
        let info = describe(row: r)
        let plugin = registry.plugins[type.plugin].id
        let error =
            "plugin \(plugin)'s tappable-items selector \(type.tappable?.name ?? "?") returned \(count) for row \(row.section):\(row.index) ('\(type.name)' of floor '\(info.floor)'), more than FLOOR_TAPPABLE_MAX (\(FLOOR_TAPPABLE_MAX)); rows of this type get no tappable items"
        if tappableOverflowReported.insert(row.type).inserted {
            report(Diagnostic(.warning, error, plugin: plugin))
        }
        return error
    }

    /// The action for tapping item `item` of row `row` of section `section`.
    public func tap(section: Int, row: Int, item: Int = 0) -> Result<TapAction, NoAction> {
        guard let r = rowIndex(section: section, row: row) else {
            guard section < sections.count else {
                return .failure(
                    NoAction(
                        description:
                            "no row \(section):\(row) on the page (\(sections.count) sections, 0 to \(sections.count - 1))"
                    ))
            }
            let count = rows(ofSection: section).count
            return .failure(
                NoAction(
                    description:
                        "no row \(section):\(row) on the page (floor '\(sections[section].floorID)', section \(section), has \(count) row\(count == 1 ? "" : "s"))"
                ))
        }
        let info = describe(row: r)
        let tapped = rows[r]
        let type = registry.rowTypes[Int(tapped.type)]
        if let reason = info.placeholder {
            return .failure(
                NoAction(description: "row \(section):\(row) of floor '\(info.floor)' is not tappable: \(reason)"))
        }
        guard let action = type.action else {
            return .failure(
                NoAction(description: "row \(section):\(row) (\(info.type) of floor '\(info.floor)') is not tappable"))
        }
        let (count, pluginError) = tappableAnswer(row: r)
        if let pluginError {
            return .failure(
                NoAction(description: "row \(section):\(row) has no tappable items: the plugin's error: \(pluginError)")
            )
        }
        guard item >= 0, item < count else {
            return .failure(
                NoAction(
                    description:
                        "row \(section):\(row) (\(info.type) of floor '\(info.floor)') has \(count) tappable item\(count == 1 ? "" : "s"); there is no item \(item)"
                ))
        }
        let collector = ActionCollector()
        let described = registry.crashRecord.withPluginCall(.action, on: origins[Int(tapped.section)]) {
            collector.withSink { sink in
                (try? action.invoker.perform(
                    .pointer(type.context), .pointer(models[Int(tapped.section)]),
                    .uint(UInt64(tapped.index)), .uint(UInt64(item)), .pointer(sink))) == .bool(true)
            }
        }
        if !collector.misuse.isEmpty {
            let plugin = type.plugin >= 0 ? registry.plugins[type.plugin].id : "?"
            return .failure(
                NoAction(
                    description:
                        "plugin \(plugin)'s action selector \(action.name) misused the action sink for item \(item) of row \(section):\(row) (\(info.type) of floor '\(info.floor)'): \(collector.misuse.joined(separator: "; ")); the tap does nothing (floor_abi.h: call jump once, with a URL, then param)"
                ))
        }
        guard described, let url = collector.url else {
            return .failure(
                NoAction(
                    description:
                        "item \(item) of row \(section):\(row) (\(info.type) of floor '\(info.floor)') has no action"))
        }
        return .success(
            TapAction(
                section: section, row: row, item: item, floor: info.floor, type: info.type, url: url,
                eventId: collector.eventId, params: collector.params))
    }
}
