import FloorLayout
import FloorRender
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// `--format html`: one self-contained file with the page in a phone frame, one element per row carrying
/// its identity, and everything a page or plugin supplied escaped.
struct HTMLRendererTests {
    /// The row elements of a rendered file, in order, as their data attributes.
    static func rowAttributes(_ html: String) throws -> [[String: String]] {
        let row = try Regex(
            #"<div class="row[^"]*" id="r\d+" data-index="(\d+)" data-section="([^"]*)" data-row="([^"]*)" data-floor="([^"]*)" data-type="([^"]*)""#
        )
        return html.matches(of: row).map { m in
            [
                "index": String(m.output[1].substring!), "section": String(m.output[2].substring!),
                "row": String(m.output[3].substring!),
                "floor": String(m.output[4].substring!), "type": String(m.output[5].substring!),
            ]
        }
    }

    /// Examples/home.json with the shipped plugins, 375 points wide, as `--format html` renders it.
    static func homePage() throws -> (html: String, adapter: Adapter) {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let adapter = try host.layout(page: Repo.path("Examples/home.json"), width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812,
            source: PageSource(registry: host.registry, root: PageRoot(around: adapter.page.file)))
        return (HTMLRenderer.render(session, diagnostics: host.diagnostics(for: adapter)), adapter)
    }

    @Test func everyRowIsAnElementWithItsIdentityAndPlace() throws {
        let (html, adapter) = try Self.homePage()
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
        #expect(html.contains("class=\"phone\" style=\"width:375px\""))
        // The page's own title is the navigation bar (CJK as is).
        #expect(html.contains("<span class=\"navtitle\">首页 Home</span>"))
        // Self-contained: nothing is fetched (no script, stylesheet, image or font from anywhere).
        #expect(
            !html.contains("<script") && !html.contains("<img") && !html.contains("<link") && !html.contains("url("))
        let rows = try Self.rowAttributes(html)
        #expect(rows.count == adapter.rowCount)
        for (r, attributes) in rows.enumerated() {
            let info = adapter.describe(row: r)
            #expect(
                attributes == [
                    "index": "\(r)", "section": "\(info.section)", "row": "\(info.row)", "floor": info.floor,
                    "type": info.type,
                ])
        }
        // Rows sit at their layout offsets; a product card draws its image frame, its title as body text, its
        // price as an accent headline (ABI 1.5 text styles, one span a line the host broke) and a rule.
        let card = try #require(rows.firstIndex { $0["type"] == "ProductCard" })
        let info = adapter.describe(row: card)
        let element = try #require(html.split(separator: "\n").first { $0.contains("id=\"r\(card)\"") })
        #expect(element.contains("style=\"top:\(Int(info.y))px;height:\(Int(info.height))px\""))
        #expect(element.contains("<div class=\"img\""))
        #expect(element.contains("<span class=\"tl body w400\""))
        #expect(element.contains("<span class=\"tl headline w600 accent\""))
        #expect(element.contains("<div class=\"rule\""))
        // Sticky rows are marked as such: new arrivals' sort strip, and the feed's header, also a header.
        let sticky = (0..<adapter.rowCount).filter { adapter.describe(row: $0).isSticky }
        #expect(sticky.count == 2)
        #expect(html.contains("<div class=\"row sticky\" id=\"r\(sticky[0])\""))
        #expect(html.contains("<div class=\"row header sticky\" id=\"r\(sticky[1])\""))
    }

    /// ABI 1.5's fitted_image: the shipped IconGrid asks for its icons whole inside their frames (class
    /// `fit`); banners and product photos cover theirs (1.4's image, no class).
    @Test func iconsFitTheirFramesAndPhotosFillThem() throws {
        let html = try Self.homePage().html
        let image = try Regex(#"<div class="(img[^"]*)" title="[^"]*" data-source="([^"]*)""#)
        let images = html.matches(of: image).map { (String($0.output[1].substring!), String($0.output[2].substring!)) }
        let icons = images.filter { ["images/icon/", "images/brand/", "images/flag/"].contains(where: $0.1.contains) }
        let photos = images.filter { $0.1.contains("images/banner/") || $0.1.contains("images/p/") }
        #expect(!icons.isEmpty && !photos.isEmpty, "\(images)")
        #expect(icons.allSatisfy { $0.0 == "img fit" }, "\(icons)")
        #expect(photos.allSatisfy { $0.0 == "img" }, "\(photos)")
    }

    @Test func pageAndPluginTextIsEscapedAndUnknownFloorsShowTheirReason() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let page = try folder.write(
            "evil.json",
            #"""
            {"title": "<script>alert(1)</script>",
             "floors": [
              {"type": "Title", "id": "t\"><b>", "title": "a & b <i>x</i> 'q' \u0007"},
              {"type": "ProductFeed", "id": "feed", "items": [{"id": "p1", "title": "<img src=x onerror=alert(1)>", "price": "¥1", "img": "https://x/\"><script>.jpg", "jump": {"url": "app://p"}}]},
              {"type": "Coupon<b>", "id": "c1"}
             ]}
            """#)
        let adapter = try host.layout(page: page, width: 320)
        let session = PageSession(
            adapter: adapter, viewportHeight: 600,
            source: PageSource(registry: host.registry, root: PageRoot(around: page)))
        let html = HTMLRenderer.render(session, diagnostics: host.diagnostics(for: adapter))
        #expect(html.contains("class=\"phone\" style=\"width:320px\""))
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<i>") && !html.contains("<b>x"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("a &amp; b &lt;i&gt;x&lt;/i&gt; &#39;q&#39; \\u0007"))
        #expect(html.contains("data-floor=\"t&quot;&gt;&lt;b&gt;\""))
        // The product's title takes two lines (the host's break is at the space), each escaped.
        #expect(html.contains(">&lt;img src=x</span>") && html.contains(">onerror=alert(1)&gt;</span>"))
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

    /// Where a text line's glyphs are in its 12 px box, for the `.t` elements of `classes` ("bold", "muted"...),
    /// from the stylesheet's font-size, line-height and height as CSS lays out one line: the line box at the
    /// top of the element, the font's ascent + descent centred on the line-height, the baseline an ascent
    /// below that. Font metrics of Noto Sans CJK SC, the CJK font browsers on Linux use (and close to the
    /// Latin UI fonts'), as Chromium reports them: ascent 1.16 em, descent 0.288 em; glyphs reach at most
    /// 0.86 em above the baseline (CJK, digits, capitals and ascenders) and 0.3 em below it (descenders,
    /// brackets).
    static func glyphs(_ classes: Set<String>) throws -> (box: Double, top: Double, bottom: Double) {
        var declarations: [String: String] = [:]
        for rule in HTMLRenderer.stylesheet.split(separator: "\n") {
            let parts = rule.trimmingCharacters(in: .whitespaces).dropLast().split(separator: "{", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix(".t"), !parts[0].contains(" ") else { continue }
            let selector = parts[0].split(separator: ".").map(String.init)
            guard selector.first == "t", Set(selector.dropFirst()).isSubset(of: classes) else { continue }
            for declaration in parts[1].split(separator: ";") {
                let pair = declaration.split(separator: ":", maxSplits: 1).map(String.init)
                if pair.count == 2 { declarations[pair[0]] = pair[1] }
            }
        }
        func px(_ name: String) throws -> Double {
            let value = try #require(declarations[name], "no \(name) for .t.\(classes.sorted().joined(separator: "."))")
            return try #require(Double(value.replacingOccurrences(of: "px", with: "")), "\(name):\(value) is not in px")
        }
        let font = try px("font-size")
        let lineHeight = try px("line-height")
        let baseline = lineHeight / 2 + (1.16 - 0.288) / 2 * font
        return (try px("height"), baseline - 0.86 * font, baseline + 0.3 * font)
    }

    /// floor_abi.h: a text line occupies y to y + 12 and its glyphs stay inside it. In every style (and any
    /// mix of styles), the element is the 12 px line and the glyphs are at least a quarter pixel inside it,
    /// so they are never clipped and two lines 12 px apart (a title and its subtitle) are at least half a
    /// pixel apart, bracket over CJK; 12 px bold text on a 12 px line-height reached 2 px past its line.
    @Test func textLinesKeepTheirGlyphsInsideTheirTwelvePointLine() throws {
        let styles = ["bold", "muted", "accent", "center", "strike"]
        for mask in 0..<(1 << styles.count) {
            let classes = Set(styles.indices.filter { mask & (1 << $0) != 0 }.map { styles[$0] })
            let line = try Self.glyphs(classes)
            #expect(line.box == 12, "\(classes)")
            #expect(
                line.top >= 0.25 && line.bottom <= 11.75, "\(classes): glyphs from \(line.top) to \(line.bottom) px")
        }
        // The Title plugin's bar (ABI 1.5 text styles): the title a headline line at y 10, the subtitle a
        // footnote line below the title's 22-point line, each in its own line box, unclipped.
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["Title"]))
        let page = try folder.write(
            "p.json", #"{"floors":[{"type":"Title","id":"t","title":"猜你喜欢 For you","subtitle":"Picked for you (每天)"}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812,
            source: PageSource(registry: host.registry, root: PageRoot(around: page)))
        let html = HTMLRenderer.render(session, diagnostics: [])
        let pattern = #"<span class="(tl [a-z0-9 ]+)" data-width="[0-9.]+" style="left:[0-9.]+px;top:(\d+)px""#
        let spans = html.matches(of: try Regex(pattern)).map {
            (String($0.output[1].substring!), Double(String($0.output[2].substring!))!)
        }
        try #require(spans.count == 2)
        #expect(spans[0].0 == "tl headline w600" && spans[0].1 == 10)
        #expect(spans[1].0 == "tl footnote w400 muted" && spans[1].1 == 10 + 22 + 2)
        #expect(HTMLRenderer.stylesheet.contains(".tl.headline{font-size:17px;line-height:22px}"))
        #expect(HTMLRenderer.stylesheet.contains("overflow:visible"))
    }

    /// The CLI writes the same file.
    @Test func formatHTMLPrintsTheFile() throws {
        let folder = try TemporaryFolder()
        let result = try floorhost([
            "--plugins", try folder.installShippedPlugins(), Repo.path("Examples/home.json"), "--format", "html",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<!doctype html>"))
        #expect(try Self.rowAttributes(result.stdout).count == 38 + 1)  // home.json alone: 38 rows, and the footer
    }
}
