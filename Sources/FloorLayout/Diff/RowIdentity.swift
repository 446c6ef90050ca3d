import CFloorABI
import FloorRuntime

/// Which row of a floor is "the same row" in two versions of the floor, and whether it shows the same
/// content, known from the floor's JSON (FloorSignature) and the rows its plugin listed, without asking
/// the plugin (the C ABI says nothing of which item a row draws).
///
/// The rule, and what it assumes of a plugin:
/// - **Item rows.** When exactly one row type (of the floor's non-header rows) has as many rows as the floor
///   has `items`, and those rows are contiguous, its k-th row is taken to draw item k (one row per item, in
///   item order: what the SDK's ItemsFloor does, and ProductFeed). Such a row's identity is its item's
///   (the item `id`, or its content when it has none); its content is the item plus the floor's own
///   fields (everything but `items`, `header`, `margin`).
/// - **Header rows** (FLOOR_ROW_HEADER): identity is the row type and ordinal; content the header plus
///   the floor's own fields.
/// - **Every other row** (margins, an icon grid's lines, a carousel): identity is its row type, flags and
///   ordinal among rows of that type; its content is the whole floor when the floor has no item rows
///   (an icon line may show any item), else the floor without its items.
/// A plugin whose rows depend on the floor in other ways than these (a footer counting the items) would
/// keep a stale height after a reload; `floorhost conform` cannot see that. Telling the host which item a
/// row draws would take an ABI addition (a row sink call with an item index); until then this is the rule.
package struct RowIdentity: Hashable {
    package enum Key: Hashable {
        case item(FloorSignature.ItemKey, type: Int32)
        case other(type: Int32, flags: UInt32, ordinal: Int)
    }
    package let key: Key
    package let content: UInt64
    /// The index in its floor's `items` of the item the row draws, when it is an item row whose item has an
    /// id: where `floorhost diff`'s lines read the id from the page's content (PageDiff.namingItems).
    package var item: Int? = nil

    /// One identity per row of a floor whose rows have these types and flags, in order.
    package static func rows(of floor: FloorSignature, types: some Collection<Int32>, flags: some Collection<UInt32>)
        -> [RowIdentity]
    {
        let types = Array(types)
        let flags = Array(flags)
        let itemType = itemRowType(floor, types: types, flags: flags)
        let rest: UInt64 = {
            guard itemType != nil else { return floor.whole }
            var h = ContentHash()
            h.add(floor.own)
            h.add(floor.header)
            h.add(floor.margin)
            return h.value
        }()
        var ordinals: [Key: Int] = [:]
        var item = 0
        return types.indices.map { r in
            if types[r] == itemType && flags[r] & FLOOR_ROW_HEADER == 0 {
                let shown = floor.items[item]
                defer { item += 1 }
                var h = ContentHash()
                h.add(floor.own)
                h.add(shown.content)
                return RowIdentity(
                    key: .item(shown.key, type: types[r]), content: h.value, item: shown.hasID ? item : nil)
            }
            let base = Key.other(type: types[r], flags: flags[r], ordinal: 0)
            let ordinal = ordinals[base, default: 0]
            ordinals[base] = ordinal + 1
            let content: UInt64
            if flags[r] & FLOOR_ROW_HEADER != 0 {
                var h = ContentHash()
                h.add(floor.own)
                h.add(floor.header)
                content = h.value
            } else {
                content = rest
            }
            return RowIdentity(key: .other(type: types[r], flags: flags[r], ordinal: ordinal), content: content)
        }
    }

    /// The one row type whose non-header rows number the floor's items and lie together; nil when there
    /// is none or more than one.
    package static func itemRowType(_ floor: FloorSignature, types: [Int32], flags: [UInt32]) -> Int32? {
        guard !floor.items.isEmpty else { return nil }
        var runs: [Int32: (count: Int, first: Int, last: Int)] = [:]
        for r in types.indices where flags[r] & FLOOR_ROW_HEADER == 0 {
            if let run = runs[types[r]] {
                runs[types[r]] = (run.count + 1, run.first, r)
            } else {
                runs[types[r]] = (1, r, r)
            }
        }
        let candidates = runs.filter {
            $0.value.count == floor.items.count && $0.value.last - $0.value.first + 1 == $0.value.count
        }
        return candidates.count == 1 ? candidates.first!.key : nil
    }
}
