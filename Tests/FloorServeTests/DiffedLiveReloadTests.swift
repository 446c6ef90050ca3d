import FloorSession
import Foundation
import Testing

@testable import FloorServe

/// serve's live reload goes through PageSession.reload: a save measures only what changed, and the tab is
/// told where its content went when an edit above it moved it.
struct DiffedLiveReloadTests {
    @Test func aFloorInsertedAboveTheTabsContentMovesTheTabWithItAndMeasuresOnlyTheNewRow() async throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let file = fixture.pages + "/home.json"
        let id = preview.open(file, phone: .standard)
        let before = try PreviewSessionTests.view(preview, id, offset: 600, version: -1)
        let calls = try #require(preview.withSession(id) { $0.session!.adapter.stats.heightCalls })
        // A title (42 points, no subtitle: a 22-point headline line and 10 above and below; ABI 1.5 text styles)
        // inserted as the page's first floor.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try fixture.write(
            "home.json",
            text.replacingOccurrences(
                of: #""floors": ["#, with: #""floors": [{"type":"Title","id":"notice","title":"公告 Notice"},"#))
        #expect(preview.reloadChangedPages() == 1)
        let after = try PreviewSessionTests.view(preview, id, offset: 600, version: before.version)
        #expect(after.version > before.version)
        #expect(
            (after.object["scrollTo"] as? NSNumber)?.doubleValue == 642, "the tab follows its content 42 points down")
        #expect(preview.withSession(id) { $0.session!.viewport.offset } == 642)
        #expect(
            preview.withSession(id) { $0.session!.adapter.stats.heightCalls } == calls + 1,
            "only the new title is measured")
        #expect(
            after.events.contains {
                $0["kind"] as? String == "reload" && ($0["rowsMeasured"] as? NSNumber)?.intValue == 1
            })
        // Told once: the next answer follows the tab's own offset again.
        let next = try PreviewSessionTests.view(preview, id, offset: 700, version: after.version)
        #expect(next.object["scrollTo"] == nil)
        #expect(preview.withSession(id) { $0.session!.viewport.offset } == 700)
    }
}
