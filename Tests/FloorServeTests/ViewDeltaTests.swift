import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FloorServe

/// View answers carry only what the tab lacks (HeldRows): a row the tab reports holding under the tag it
/// has now comes as its position and tag, with no html, frames or tappable count.
struct ViewDeltaTests {
    /// A tab as the client script keeps one: the rows it holds by index, with their tags, and the pinned row.
    struct Tab {
        var rows: [Int: String] = [:]
        var pinned: (index: Int, tag: String)?
        var version = -1
        /// Bytes of every answer so far.
        var bytes = 0
        /// The html of each row held.
        var html: [Int: String] = [:]
        /// Rows drawn again though held, other than the load-state footer (which draws the load's state).
        var redrawn: [(index: Int, held: String, now: String)] = []

        var held: HeldRows { HeldRows(rows, pinned: pinned.map { HeldRows.Pinned(index: $0.index, tag: $0.tag) }) }

        /// Reports `offset` (holding what it holds unless `holding` is false) and takes the answer in as
        /// the script does; a row sent without html must be one it holds under that tag.
        mutating func report(
            _ preview: Preview, _ id: String, offset: Double, holding: Bool = true
        ) throws -> [String: Any] {
            let answer = try #require(
                preview.view(id, offset: offset, knownVersion: version, held: holding ? held : HeldRows()))
            bytes += answer.count
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any])
            version = object["version"] as? Int ?? version
            let held = self.held
            var next: [Int: String] = [:]
            for row in object["rows"] as? [[String: Any]] ?? [] {
                let index = try #require(row["index"] as? Int)
                let tag = try #require(row["tag"] as? String)
                if row["html"] == nil {
                    #expect(held.holds(index, as: tag), "row \(index) left out but not held as \(tag)")
                } else if let had = held.rows[index], let drawn = row["html"] as? String {
                    let footer = "data-floor=\"floorhost.footer\""
                    if !drawn.contains(footer) && html[index]?.contains(footer) != true {
                        redrawn.append((index, had, tag))
                    }
                }
                if let drawn = row["html"] as? String { html[index] = drawn }
                next[index] = tag
            }
            rows = next
            html = html.filter { next[$0.key] != nil }
            if let p = object["pinned"] as? [String: Any], let index = p["index"] as? Int, let tag = p["tag"] as? String
            {
                if p["html"] == nil {
                    #expect(held.holdsPinned(index, as: tag), "pinned row \(index) left out but not held")
                }
                pinned = (index, tag)
            } else {
                pinned = nil
            }
            return object
        }
    }

    static func drawnRows(_ answer: [String: Any]) -> [Int] {
        (answer["rows"] as? [[String: Any]] ?? []).filter { $0["html"] != nil }.compactMap { $0["index"] as? Int }
    }

    @Test func aSecondIdenticalReportCarriesNoHTML() throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
        var tab = Tab()
        let first = try tab.report(fixture.preview, id, offset: 0)
        #expect(!Self.drawnRows(first).isEmpty)
        let before = tab.bytes
        let second = try tab.report(fixture.preview, id, offset: 0)
        #expect(Self.drawnRows(second).isEmpty, "rows held unchanged are not drawn again")
        let rows = try #require(second["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["frames"] == nil && $0["y"] != nil })
        #expect((second["pinned"] as? [String: Any])?["html"] == nil)
        // A tab that holds nothing (a first view, a device switch) gets every row whole, as before.
        var fresh = Tab()
        fresh.version = tab.version
        #expect(Self.drawnRows(try fresh.report(fixture.preview, id, offset: 0)).count == rows.count)
        #expect(tab.bytes - before < before / 5, "second answer \(tab.bytes - before) B, first \(before) B")
    }

    @Test func aRowHeldUnderAnotherTagIsSentWhole() throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
        var tab = Tab()
        _ = try tab.report(fixture.preview, id, offset: 0)
        let stale = try #require(tab.rows.keys.min())
        tab.rows[stale] = "0"
        #expect(Self.drawnRows(try tab.report(fixture.preview, id, offset: 0)) == [stale])
    }

    /// What the script sends, through the route: held rows by index (JSON object keys) and their tags.
    @Test func theViewRouteTakesTheRowsTheTabHolds() async throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: .standard)
        var tab = Tab()
        _ = try tab.report(fixture.preview, id, offset: 0)
        let report: [String: Any] = [
            "offset": 0, "version": tab.version,
            "held": Dictionary(uniqueKeysWithValues: tab.rows.map { (String($0.key), $0.value) }),
            "pinned": tab.pinned.map { ["index": $0.index, "tag": $0.tag] as [String: Any] } ?? NSNull(),
        ]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self)
        try await ServeRoutesTests.app(fixture).test(.router) { client in
            try await client.execute(uri: "/api/sessions/\(id)/view", method: .post, body: ByteBuffer(string: body)) {
                response in
                #expect(response.status == .ok)
                let text = ServeRoutesTests.text(response)
                #expect(text.contains(#""tag":"#) && !text.contains(#""html":"#), "\(text.prefix(400))")
            }
        }
    }

    /// Examples/home.json scrolled 40 points at a time to its end (loading home-2 and home-3 on the way)
    /// and back to the top: the figure BENCHMARKS.md records ("Serve", view answers). On the way back the
    /// feed's header comes into reach while the tab shows it pinned: it is sent whole (a pinned copy is no
    /// row of the screen).
    @Test func smallScrollsSendOnlyTheRowsThatCameIntoReach() throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: .standard)
        var tab = Tab()
        var everything = Tab()
        var offset = 0.0
        var reports = 0
        var answer = try tab.report(preview, id, offset: 0)
        _ = try everything.report(preview, id, offset: 0, holding: false)
        var probe = Tab()
        while reports < 2_000 {
            let height = answer["height"] as? Double ?? 0
            if offset + 40 > height {
                // At the end: a next page loads on a task; wait for it (a page that grows), at most 30 s.
                // Past the last next page ("end") the scroll is over.
                if (answer["load"] as? [String: Any])?["state"] as? String == "end" { break }
                let grew = eventually(seconds: 30) {
                    ((try? probe.report(preview, id, offset: offset))?["height"] as? Double ?? 0) > height ? true : nil
                }
                guard grew == true else { break }
                answer = try tab.report(preview, id, offset: offset)
                _ = try everything.report(preview, id, offset: offset, holding: false)
                continue
            }
            offset += 40
            reports += 1
            answer = try tab.report(preview, id, offset: offset)
            _ = try everything.report(preview, id, offset: offset, holding: false)
        }
        while offset > 0 && reports < 4_000 {
            offset = max(0, offset - 40)
            reports += 1
            answer = try tab.report(preview, id, offset: offset)
            _ = try everything.report(preview, id, offset: offset, holding: false)
        }
        #expect(reports > 100)
        #expect(tab.version > 1, "next pages loaded on the way")
        print(
            "view answers, home.json by 40 pt down and up, \(reports + 1) reports: \(everything.bytes) B whole, "
                + "\(tab.bytes) B with held rows (\(everything.bytes / (reports + 1)) and \(tab.bytes / (reports + 1)) B each)"
        )
        #expect(tab.bytes * 4 < everything.bytes)
        #expect(tab.redrawn.isEmpty, "rows held and unchanged were drawn again: \(tab.redrawn)")
    }

    /// A page with a 10 MB title and a 10 MB picture name. The title's row is short (the text layout ends
    /// it with an ellipsis); the picture's address is drawn into its row's html (about 200 KB): sent once.
    @Test func aTenMegabyteTitleIsSentOnce() throws {
        let fixture = try ServeFixture()
        let title = String(repeating: "长标题 long title ", count: 10 << 20 / 22)
        let picture = String(repeating: "p", count: 10 << 20)
        try fixture.write(
            "long.json",
            #"{"floors":[{"type":"Title","id":"t","title":""# + title
                + #""},{"type":"Focus","id":"f","items":[{"id":"b","img":"images/"# + picture
                + #".svg","title":"图 Picture"}]}]}"#)
        let id = fixture.preview.open(fixture.pages + "/long.json", phone: .standard)
        var tab = Tab()
        _ = try tab.report(fixture.preview, id, offset: 0)
        #expect(tab.bytes > 100_000)
        let before = tab.bytes
        let second = try tab.report(fixture.preview, id, offset: 0)
        #expect(Self.drawnRows(second).isEmpty)
        #expect(tab.bytes - before < 2_048, "the repeated answer is \(tab.bytes - before) B, the first \(before) B")
        print("view answers, a 10 MB title and picture name: \(before) B first, \(tab.bytes - before) B repeated")
    }

    /// A reload redraws the rows whose drawing changed; a load-more appends below rows that keep their tags.
    @Test func aReloadSendsTheChangedRowsOnly() throws {
        let fixture = try ServeFixture()
        let page = try fixture.write(
            "two.json",
            #"{"floors":[{"type":"Title","id":"a","title":"甲 First"},{"type":"Title","id":"b","title":"乙 Second"}]}"#)
        let preview = fixture.preview
        let id = preview.open(page, phone: .standard)
        var tab = Tab()
        let first = try tab.report(preview, id, offset: 0)
        let rows = try #require(first["rows"] as? [[String: Any]])
        try fixture.write(
            "two.json",
            #"{"floors":[{"type":"Title","id":"a","title":"甲 First"},{"type":"Title","id":"b","title":"乙 Changed"}]}"#)
        let changed = try #require(
            eventually(seconds: 30) { () -> [String: Any]? in
                preview.reloadChangedPages()
                let answer = try tab.report(preview, id, offset: 0)
                return Self.drawnRows(answer).isEmpty ? nil : answer
            })
        let drawn = Self.drawnRows(changed)
        #expect(!drawn.isEmpty && drawn.count < rows.count, "only the changed floor's rows: \(drawn) of \(rows.count)")
        #expect(
            (changed["rows"] as? [[String: Any]] ?? []).contains {
                ($0["html"] as? String)?.contains("Changed") == true
            })
    }
}
