import FloorConform
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Random versions of a page and random CMS edits of them (floors and items inserted, deleted, moved,
/// edited; ids missing or repeated; the file re-indented): a reload of the old version onto the new one
/// must lay the page out exactly as the new version laid out afresh, at the current width and at another
/// width measured before, and must measure exactly the rows it calls changed.
struct ReloadPropertyTests {
    /// A floor as the generator edits it, written out as JSON by `json`.
    struct Floor {
        var type: String
        var id: String?
        var title = "T"
        var subtitle: String?
        var header: String?
        var margin: (top: Int, bottom: Int)?
        var columns = 4
        var items: [(id: String, text: String)] = []

        func json(spaced: Bool) -> String {
            var fields = [#""type":"\#(type)""#]
            if let id { fields.append(#""id":"\#(id)""#) }
            if let header { fields.append(#""header":{"title":"\#(header)","sticky":false}"#) }
            if let margin { fields.append(#""margin":{"top":\#(margin.top),"bottom":\#(margin.bottom)}"#) }
            switch type {
            case "Title":
                fields.append(#""title":"\#(title)""#)
                if let subtitle { fields.append(#""subtitle":"\#(subtitle)""#) }
            case "ProductFeed":
                fields.append(
                    #""items":[\#(items.map { #"{"id":"\#($0.id)","title":"\#($0.text)","price":"¥\#($0.text.count)","img":"i.jpg"}"# }.joined(separator: ","))]"#
                )
            case "IconGrid":
                fields.append(#""columns":\#(columns)"#)
                fields.append(
                    #""items":[\#(items.map { #"{"id":"\#($0.id)","img":"i.png","title":"\#($0.text)"}"# }.joined(separator: ","))]"#
                )
            default:  // Focus
                fields.append(
                    #""items":[\#(items.map { #"{"id":"\#($0.id)","img":"b.jpg","title":"\#($0.text)"}"# }.joined(separator: ","))]"#
                )
            }
            return "{" + fields.joined(separator: spaced ? ",\n   " : ",") + "}"
        }
    }

    static func page(_ floors: [Floor], spaced: Bool) -> String {
        #"{"floors":[\#(floors.map { $0.json(spaced: spaced) }.joined(separator: spaced ? ",\n  " : ","))]}"#
    }

    static func randomFloor(_ random: inout SeededRandom, serial: inout Int) -> Floor {
        serial += 1
        let type = random.pick(["Title", "ProductFeed", "ProductFeed", "IconGrid", "Focus"])
        // Mostly unique ids; now and then none, or one another floor may have too.
        let id: String? = random.chance(8) ? nil : random.chance(8) ? "dup" : "\(type.prefix(1).lowercased())\(serial)"
        var floor = Floor(type: type, id: id)
        floor.title = random.pick(["Sale", "新品", "Picks"])
        floor.subtitle = random.chance(30) ? "sub" : nil
        floor.header = type == "ProductFeed" && random.chance(50) ? "Feed \(serial)" : nil
        floor.margin = random.chance(30) ? (random.int(0...3) * 6, random.int(0...3) * 6) : nil
        floor.columns = random.int(1...4)
        if type != "Title" {
            floor.items = (0..<random.int(1...6)).map { _ in randomItem(&random) }
        }
        return floor
    }

    static func randomItem(_ random: inout SeededRandom) -> (id: String, text: String) {
        ("i\(random.int(0...40))", random.pick(["a", "bb", "ccc"]))
    }

    /// One CMS edit of the page.
    static func edit(_ floors: inout [Floor], _ random: inout SeededRandom, serial: inout Int) {
        let f = floors.isEmpty ? 0 : random.int(0...(floors.count - 1))
        switch random.int(0...9) {
        case 0: floors.insert(randomFloor(&random, serial: &serial), at: random.int(0...floors.count))
        case 1 where !floors.isEmpty: floors.remove(at: f)
        case 2 where !floors.isEmpty:
            let moved = floors.remove(at: f)
            floors.insert(moved, at: random.int(0...floors.count))
        case 3 where !floors.isEmpty:
            floors[f].title = random.pick(["Sale", "新品", "Picks", "Other"])
            floors[f].subtitle = random.chance(50) ? "s" : nil
        case 4 where !floors.isEmpty:
            floors[f].margin = random.chance(70) ? (random.int(0...3) * 6, random.int(0...3) * 6) : nil
        case 5 where !floors.isEmpty && floors[f].type != "Title":
            floors[f].items.insert(randomItem(&random), at: random.int(0...floors[f].items.count))
        case 6 where !floors.isEmpty && floors[f].items.count > 1:
            floors[f].items.remove(at: random.int(0...(floors[f].items.count - 1)))
        case 7 where !floors.isEmpty && floors[f].items.count > 1:
            let item = floors[f].items.remove(at: random.int(0...(floors[f].items.count - 1)))
            floors[f].items.insert(item, at: random.int(0...floors[f].items.count))
        case 8 where !floors.isEmpty && !floors[f].items.isEmpty:
            floors[f].items[random.int(0...(floors[f].items.count - 1))].text = random.pick(["a", "bb", "ccc", "dddd"])
        case 9 where !floors.isEmpty:
            floors[f].header = floors[f].type == "ProductFeed" && random.chance(60) ? "H\(random.int(0...3))" : nil
            floors[f].columns = random.int(1...4)
        default: break
        }
    }

    @Test func diffThenApplyEqualsTheNewPagesRows() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        var random = SeededRandom(state: 2026)
        var serial = 0
        var changedRounds = 0
        for round in 0..<150 {
            var floors = (0..<random.int(0...8)).map { _ in Self.randomFloor(&random, serial: &serial) }
            let oldFile = try folder.write("old-\(round).json", Self.page(floors, spaced: random.chance(50)))
            for _ in 0..<random.int(0...4) { Self.edit(&floors, &random, serial: &serial) }
            let newFile = try folder.write("new-\(round).json", Self.page(floors, spaced: random.chance(50)))

            let adapter = try host.layout(page: oldFile, width: 375)
            adapter.setWidth(320)
            adapter.setWidth(375)
            let calls = adapter.stats.heightCalls
            // Half the rounds decode the new version as a reload does, keeping unchanged floors' models.
            let reusing = round % 2 == 0 ? ReusableFloors(adapter) : nil
            let diff = adapter.reload([
                try PageDecoder.decode(
                    file: newFile, root: PageRoot(around: newFile), registry: host.registry, reusing: reusing)
            ])
            let fresh = try host.layout(page: newFile, width: 375)
            let rows = (0..<adapter.rowCount).map { adapter.describe(row: $0) }
            #expect(rows == (0..<fresh.rowCount).map { fresh.describe(row: $0) }, "round \(round)")
            #expect(adapter.totalHeight == fresh.totalHeight)
            #expect(
                adapter.stats.heightCalls - calls == diff.rowsMeasured,
                "round \(round): one height call per changed row")
            #expect(
                diff.rowsMeasured == diff.keptRows.filter { !$0 }.count
                    && diff.rowsKept + diff.rowsMeasured == fresh.rowCount)
            // Rows measured are rows the diff lists, or rows of floors it lists as inserted or updated.
            var listed = 0
            for floor in diff.floors {
                if floor.change == .inserted {
                    listed += floor.new!.rows
                    continue
                }
                listed += floor.rows.filter { $0.change != .deleted && $0.change != .moved }.count
            }
            #expect(diff.rowsMeasured == listed, "round \(round)")
            if !diff.isEmpty { changedRounds += 1 }
            // The other width was measured before the reload: only the changed rows are measured there.
            let before320 = adapter.stats.heightCalls
            adapter.setWidth(320)
            #expect(adapter.stats.heightCalls - before320 == diff.rowsMeasured, "round \(round)")
            let fresh320 = try host.layout(page: newFile, width: 320)
            #expect(
                (0..<adapter.rowCount).map { adapter.describe(row: $0) }
                    == (0..<fresh320.rowCount).map { fresh320.describe(row: $0) })
        }
        #expect(changedRounds > 75, "most rounds change something")
    }
}
