import Foundation
import Testing
@testable import FloorHost

/// `--format html`: one self-contained file with the page in a phone frame, one element per row carrying
/// its identity, and everything a page or plugin supplied escaped.
struct HTMLRendererTests {
    /// The row elements of a rendered file, in order, as their data attributes.
    static func rowAttributes(_ html: String) throws -> [[String: String]] {
        let row = try Regex(#"<div class="row[^"]*" id="r\d+" data-index="(\d+)" data-section="([^"]*)" data-row="([^"]*)" data-floor="([^"]*)" data-type="([^"]*)""#)
        return html.matches(of: row).map { m in
            ["index": String(m.output[1].substring!), "section": String(m.output[2].substring!), "row": String(m.output[3].substring!),
             "floor": String(m.output[4].substring!), "type": String(m.output[5].substring!)]
        }
    }

    @Test func everyRowIsAnElementWithItsIdentityAndPlace() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let session = PageSession(adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry, root: PageRoot(around: adapter.page.file)))
        let html = HTMLRenderer.render(session, diagnostics: host.diagnostics(for: adapter))
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
        #expect(html.contains("class=\"phone\" style=\"width:375px\""))
        // The page's own title is the navigation bar (CJK as is).
        #expect(html.contains("<span class=\"navtitle\">首页 Home</span>"))
        // Self-contained: nothing is fetched (no script, stylesheet, image or font from anywhere).
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<link") && !html.contains("url("))
        let rows = try Self.rowAttributes(html)
        #expect(rows.count == adapter.rowCount)
        for (r, attributes) in rows.enumerated() {
            let info = adapter.describe(row: r)
            #expect(attributes == ["index": "\(r)", "section": "\(info.section)", "row": "\(info.row)", "floor": info.floor, "type": info.type])
        }
        // Rows sit at their layout offsets; a product card draws its image frame, bold title, accent price and rule.
        let card = try #require(rows.firstIndex { $0["type"] == "ProductCard" })
        let info = adapter.describe(row: card)
        let element = try #require(html.split(separator: "\n").first { $0.contains("id=\"r\(card)\"") })
        #expect(element.contains("style=\"top:\(Int(info.y))px;height:\(Int(info.height))px\""))
        #expect(element.contains("<div class=\"img\""))
        #expect(element.contains("<span class=\"t bold\""))
        #expect(element.contains("<span class=\"t accent\""))
        #expect(element.contains("<div class=\"rule\""))
        // Sticky rows are marked as such: new arrivals' sort strip, and the feed's header, also a header.
        let sticky = (0..<adapter.rowCount).filter { adapter.describe(row: $0).isSticky }
        #expect(sticky.count == 2)
        #expect(html.contains("<div class=\"row sticky\" id=\"r\(sticky[0])\""))
        #expect(html.contains("<div class=\"row header sticky\" id=\"r\(sticky[1])\""))
    }

    @Test func pageAndPluginTextIsEscapedAndUnknownFloorsShowTheirReason() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let page = try folder.write("evil.json", #"""
            {"title": "<script>alert(1)</script>",
             "floors": [
              {"type": "Title", "id": "t\"><b>", "title": "a & b <i>x</i> 'q' \u0007"},
              {"type": "ProductFeed", "id": "feed", "items": [{"id": "p1", "title": "<img src=x onerror=alert(1)>", "price": "\"¥1\"", "img": "https://x/\"><script>.jpg", "jump": {"url": "app://p"}}]},
              {"type": "Coupon<b>", "id": "c1"}
             ]}
            """#)
        let adapter = try host.layout(page: page, width: 320)
        let session = PageSession(adapter: adapter, viewportHeight: 600, source: PageSource(registry: host.registry, root: PageRoot(around: page)))
        let html = HTMLRenderer.render(session, diagnostics: host.diagnostics(for: adapter))
        #expect(html.contains("class=\"phone\" style=\"width:320px\""))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<i>") && !html.contains("<b>x"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a &amp; b &lt;i&gt;x&lt;/i&gt; &#39;q&#39; \\u0007"))
        #expect(html.contains("data-floor=\"t&quot;&gt;&lt;b&gt;\""))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("title=\"https://x/&quot;&gt;&lt;script&gt;.jpg\""))
        // The unknown floor is a visible placeholder row with its reason, and the diagnostic is listed.
        let rows = try Self.rowAttributes(html)
        #expect(rows.last?["type"] == "FloorPlaceholder")
        #expect(html.contains("<div class=\"row placeholder\""))
        #expect(html.contains("unknown floor type &#39;Coupon&lt;b&gt;&#39; (floor &#39;c1&#39;)"))
        #expect(html.contains("<section class=\"diagnostics\">"))
        #expect(html.contains("<code>floors[2]</code>"))
    }

    @Test func coordinatesAPluginPassesAreAlwaysShortFiniteLengths() {
        #expect(HTMLText.px(.nan) == "0px")
        #expect(HTMLText.px(.infinity) == "0px")
        #expect(HTMLText.px(1e300) == "100000px")
        #expect(HTMLText.px(12) == "12px")
        #expect(HTMLText.px(12.345) == "12.35px")
    }

    /// The CLI writes the same file.
    @Test func formatHTMLPrintsTheFile() throws {
        let folder = try TemporaryFolder()
        let result = try floorhost(["--plugins", try folder.installShippedPlugins(), Repo.path("Examples/home.json"), "--format", "html"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<!doctype html>"))
        #expect(try Self.rowAttributes(result.stdout).count == 38 + 1)  // home.json alone: 38 rows, and the footer
    }
}
