import Foundation
import Testing

@testable import FloorServe

/// The preview's side of carousels (docs/ABI.md, "Paged rows"), without a browser: a tab turns a carousel
/// through its session (`/page`), the turned row comes back with its new page in `data-page` and its banner's
/// frame, and a click at a point taps the banner shown there.
struct CarouselPreviewTests {
    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func aTabTurnsTheCarouselAndTapsTheBannerShown() throws {
        let fixture = try ServeFixture()
        let preview = fixture.preview
        let id = preview.open(fixture.pages + "/home.json", phone: .standard)
        let first = try PreviewSessionTests.view(preview, id, offset: 0, version: -1)
        let row = try #require(first.rows.first)
        #expect((row["html"] as! String).contains(#"data-pages="4" data-page="0""#))
        guard case .success(let turned)? = preview.showPage(id, row: 0, page: 2) else {
            Issue.record("row 0 is a carousel")
            return
        }
        #expect(try Self.object(turned) as NSDictionary == ["row": 0, "page": 2, "pages": 4])
        let after = try PreviewSessionTests.view(preview, id, offset: 0, version: first.version)
        #expect(after.version > first.version, "the turned row is new to the tab")
        let redrawn = try #require(after.rows.first)
        #expect((redrawn["html"] as! String).contains(#"data-page="2""#))
        let frames = try #require(redrawn["frames"] as? [[String: Any]])
        #expect(frames.map { $0["item"] as? Int } == [2], "only the banner shown has a frame")
        guard case .success(let tapped)? = preview.tap(id, row: 0, x: 100, y: 40) else {
            Issue.record("the banner shown is tappable")
            return
        }
        #expect(String(decoding: tapped, as: UTF8.self).contains(#""bannerId":"b3""#))
        guard case .failure(let below)? = preview.tap(id, row: 0, x: 100, y: 140) else {
            Issue.record("the dots are no banner")
            return
        }
        #expect(below.message.hasPrefix("no action: nothing tappable at (100, 140) of row 0:0"), "\(below.message)")
        guard case .failure(let unpaged)? = preview.showPage(id, row: 1, page: 1) else {
            Issue.record("row 1 is no carousel")
            return
        }
        #expect(unpaged.message.contains("is not paged"), "\(unpaged.message)")
        #expect(preview.showPage("no-such-session", row: 0, page: 1) == nil)
    }
}
