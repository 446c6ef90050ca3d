import FloorServe
import FloorSession
import Foundation
import Testing

@testable import FloorServe

/// What a tab shows is what is true now (issue 19, "A tab that tells the truth"): a page that stops
/// parsing shows its error and the line, and comes back where it was; a failed next page is a diagnostic;
/// files are named relative to the root; each page error is one line on serve's terminal.
struct TruthfulTabTests {
    typealias View = PreviewSessionTests.View

    static func diagnostics(_ view: View) -> [String] {
        (view.object["diagnostics"] as? [[String: Any]] ?? []).map { $0["message"] as! String }
    }

    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func aPageThatStopsParsingShowsItsLineAndComesBackWhereItWas() throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let told = Lines()
        preview.onLog = { told.append($0) }
        let file = fixture.pages + "/home.json"
        let good = try String(contentsOfFile: file, encoding: .utf8)
        let id = preview.open(file, phone: .standard)
        var view = try PreviewSessionTests.view(preview, id, offset: 600, version: -1)
        let rowsAt600 = view.indices
        // A missing comma on line 3 (`"title": "首页 Home"` then `"floors"`).
        let broken = good.replacingOccurrences(of: "\"首页 Home\",", with: "\"首页 Home\"")
        #expect(broken != good)
        try fixture.write("home.json", broken)
        #expect(preview.reloadChangedPages() == 1)
        view = try PreviewSessionTests.view(preview, id, offset: 600, version: view.version)
        let error = try #require(view.error)
        #expect(error.hasPrefix("home.json:3:"), "relative to the root: \(error)")
        let source = try #require(view.object["source"] as? [String: Any])
        #expect(source["line"] as? Int == 3)
        let text = try #require(source["text"] as? String)
        #expect(text.contains("\"floors\""))
        let caret = try #require(source["caret"] as? Int)
        #expect(String(text.unicodeScalars.dropFirst(caret).prefix(8)) == "\"floors\"")
        #expect(Self.diagnostics(view) == [error])
        // Looking again tells the terminal nothing new; one line said it.
        _ = try PreviewSessionTests.view(preview, id, offset: 600, version: view.version)
        #expect(told.all == ["page error: " + error])
        // Fixed: the rows at 600 points come back, without a scroll from the top.
        try fixture.write("home.json", good)
        #expect(preview.reloadChangedPages() == 1)
        view = try PreviewSessionTests.view(preview, id, offset: 600, version: view.version)
        #expect(view.error == nil)
        #expect(view.indices == rowsAt600)
        #expect(preview.withSession(id) { $0.session?.viewport.offset } == 600)
        #expect(told.all.count == 1)
    }

    @Test func aFailedNextPageIsADiagnosticNamedRelativeToTheRoot() async throws {
        let (_, _, _, _, view) = try await PreviewSessionTests.shortPageWithAMissingNext()
        #expect(view.load == "failed")
        let messages = Self.diagnostics(view)
        #expect(
            messages.contains { $0.hasPrefix("short.json: next: next page 'later.json' failed to load: ") },
            "\(messages)")
        let failed = view.events.first { $0["kind"] as? String == "loadMore" && $0["phase"] as? String == "failed" }
        #expect(failed?["page"] as? String == "later.json")
        let footer = view.rows.first { ($0["html"] as! String).contains("floorhost.footer") }
        #expect((footer?["html"] as? String)?.contains("(tap to retry)") == true)
    }

    /// ProductFeed (one card a row) leaves out items[3], whose price is `true`: its mark is on the row of
    /// the card that took its place, Product 4, along the row's top, with the reason.
    @Test func anItemThePluginLeftOutIsMarkedWhereItWouldHaveBeen() throws {
        let fixture = try ServeFixture()
        let products = (0..<5).map { index in
            #"{"id":"p\#(index)","title":"Product \#(index)","price":\#(index == 3 ? "true" : "\"¥\(index + 1)\""),"img":"\#(index).jpg"}"#
        }
        let file = try fixture.write(
            "broken-item.json",
            #"{"floors":[{"type":"Title","id":"t","title":"今日推荐"},{"type":"ProductFeed","id":"feed","items":[\#(products.joined(separator: ","))]}]}"#
        )
        let id = fixture.preview.open(file, phone: .standard)
        let view = try PreviewSessionTests.view(fixture.preview, id, offset: 0, version: -1)
        let marked = view.rows.map { $0["html"] as! String }.filter { $0.contains("class=\"leftout") }
        #expect(marked.count == 1)
        let row = try #require(marked.first)
        #expect(row.contains("Product 4") && row.contains("class=\"leftout across\""))
        #expect(
            row.contains("<span>✕ left out: items[3].price: expected a number or a numeric string, found bool</span>"))
        #expect(
            row.contains(
                "title=\"floors[1].items[3].price: expected a number or a numeric string, found bool; item left out"))
        #expect(Self.diagnostics(view).contains { $0.contains("floors[1].items[3].price") })
    }

    @Test func rootRelativePathsDropTheRootWhereAPathStartsOnly() {
        let paths = RootRelativePaths(root: "/srv/pages")
        #expect(paths("/srv/pages/home.json:3:4: x") == "home.json:3:4: x")
        #expect(
            paths("next page '/srv/pages/a/b.json' (from /srv/pages/home.json)")
                == "next page 'a/b.json' (from home.json)")
        #expect(paths("/other/srv/pages/x.json") == "/other/srv/pages/x.json")
        #expect(RootRelativePaths(root: "Examples/")("Examples/home.json") == "home.json")
    }
}

/// Any device (issue 19, item 5): switching the screen lays the same session out again, keeping its
/// next pages, its events and the content on screen; a link's `y` opens the page scrolled there.
struct DeviceSwitchTests {
    @Test func switchingDevicesKeepsPagesEventsAndTheRowOnScreen() throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: DevicePreset.default.size)
        // Down the feed until both next pages are in, then back to a row in the middle of the page.
        var view = try PreviewSessionTests.view(preview, id, offset: 0, version: -1)
        // A page in flight is waited for (the same offset asked again), with a generous deadline, so a loaded
        // machine cannot scroll past the end before the next pages arrive.
        var offset = 0.0
        let deadline = Date().addingTimeInterval(60)
        while view.load != "end" && Date() < deadline {
            if view.load != "loading" { offset += 852 }
            view = try PreviewSessionTests.view(preview, id, offset: offset, version: view.version)
        }
        let pages = preview.withSession(id) { $0.session?.adapter.pages.count }
        #expect(pages == 3)
        let middle = view.height / 2
        view = try PreviewSessionTests.view(preview, id, offset: middle, version: view.version)
        let (row, eventsBefore) = try #require(
            preview.withSession(id) { p -> (Int, Int)? in
                guard let s = p.session, let r = s.adapter.row(at: s.viewport.offset) else { return nil }
                return (r, s.events.count)
            } ?? nil)
        let ipad = try #require(DevicePreset.named("ipad-mini"))
        let bytes = try #require(preview.resize(id, phone: ipad.size, offset: middle))
        let after = PreviewSessionTests.View(
            object: try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]))
        let scrollTo = try #require((after.object["scrollTo"] as? NSNumber)?.doubleValue)
        let state = preview.withSession(id) { p in
            (
                p.session!.adapter.width, p.session!.adapter.pages.count, p.session!.adapter.row(at: scrollTo),
                p.session!.events.count, p.phone
            )
        }
        #expect(state?.0 == 744)
        #expect(state?.1 == 3, "the next pages stay loaded")
        #expect(state?.2 == row, "the row at the top of the screen stays there")
        #expect((state?.3 ?? 0) >= eventsBefore, "the events go on")
        #expect(state?.4 == PhoneSize(width: 744, height: 1133))
        #expect(after.rows.contains { $0["index"] as? Int == row })
        #expect(after.rows.allSatisfy { ($0["html"] as! String).contains("data-index") })
    }

    @Test func aLinksYOpensThePageScrolledThere() throws {
        let fixture = try ServeFixture()
        let id = fixture.preview.open(fixture.pages + "/home.json", phone: DevicePreset.default.size, offset: 1200)
        let view = try PreviewSessionTests.view(fixture.preview, id, offset: 0, version: -1)
        #expect((view.object["scrollTo"] as? NSNumber)?.doubleValue == 1200)
        #expect(view.rows.contains { ($0["y"] as? NSNumber)?.doubleValue ?? 0 >= 1200 })
    }
}
