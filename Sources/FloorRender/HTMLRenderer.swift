import CFloorABI
import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import FloorText

/// `--format html`: one self-contained file (no script, no network) showing the page as a phone would:
/// a frame `viewport.width` points wide whose screen scrolls over the laid-out page, each row an absolutely
/// placed element at its layout offset carrying `data-section`, `data-row` (within the floor),
/// `data-floor` and `data-type`, drawn by its cell through HTMLCanvas. The page title, if the page has
/// one, is the navigation bar; the diagnostics are listed under the phone. Everything a page or plugin
/// supplied is escaped (HTMLText). `floorhost serve` builds its pages from the same parts (`row`,
/// `stylesheet`), so the file and the browser preview look the same.
public enum HTMLRenderer {
    /// The whole file.
    public static func render(_ session: PageSession, diagnostics: [Diagnostic]) -> String {
        let adapter = session.adapter
        var rows = ""
        rows.reserveCapacity(adapter.rowCount * 400)
        for r in 0..<adapter.rowCount { rows += row(adapter, r) }
        return document(
            title: adapter.page.title, file: adapter.page.file, width: session.viewport.width,
            screenHeight: session.viewport.height, pageHeight: adapter.totalHeight, rows: rows,
            diagnostics: diagnostics)
    }

    /// A page document around `rows` (row elements): the phone frame, the title bar, the diagnostics, and
    /// `extra` (markup a front end adds after the phone, e.g. its panels and script), which is inserted
    /// as is: the caller escapes what it puts there.
    public static func document(
        title: String?, file: String, width: Double, screenHeight: Double, pageHeight: Double,
        rows: String, diagnostics: [Diagnostic], extra: String = ""
    ) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        var html = """
            <!doctype html>
            <html lang="zh-CN"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escaped(title ?? name)) · floorhost</title>
            <style>\(stylesheet)</style></head>
            <body><main class="stage">
            <div class="phone" style="width:\(HTMLText.px(width))">
            <div class="statusbar"><span>9:41</span><span class="signal">●●●● 5G ▮</span></div>
            <header class="navbar"><span class="navtitle">\(HTMLText.escaped(title ?? name))</span></header>
            <div class="screen" style="height:\(HTMLText.px(screenHeight))">
            <div class="pinned"></div>
            <div class="page" style="height:\(HTMLText.px(pageHeight))">
            """
        html += rows
        html += "</div></div>\n<footer class=\"feedstate\"></footer></div>\n"
        html += diagnosticsList(diagnostics)
        html += extra
        html += "</main></body></html>\n"
        return html
    }

    /// One row's element: its place on the page, what identifies it, and what its cell drew. `images`, given
    /// an image source and the page file that named it (the row's floor's), says where the browser may load
    /// the picture from (`serve`); without it, images are placeholders.
    public static func row(_ adapter: Adapter, _ r: Int, images: ((String, String) -> String?)? = nil) -> String {
        let info = adapter.describe(row: r)
        var classes = "row"
        if info.type == BuiltinRows.placeholder || info.placeholder != nil { classes += " placeholder" }
        if info.isHeader { classes += " header" }
        if info.isSticky { classes += " sticky" }
        // An item of a grid or a waterfall sits at its frame, in its column (docs/ABI.md, "Collections").
        var column = ""
        var frame = ""
        // A row type name two plugins share says whose it is (ABI 1.5).
        let plugin = info.plugin.map { " data-plugin=\"\(HTMLText.escaped($0))\"" } ?? ""
        if let placed = info.column {
            classes += " item"
            column = " data-column=\"\(placed)\""
            frame = ";left:\(HTMLText.px(info.x));width:\(HTMLText.px(info.width));right:auto"
        }
        // A carousel (docs/ABI.md, "Paged rows") says how many pages it has and which one it draws; the
        // preview's script pages it (ClientScript).
        var paging = ""
        if case let pages = adapter.pageCount(ofRow: r), pages > 1 {
            classes += " paged"
            paging = " data-pages=\"\(pages)\" data-page=\"\(adapter.page(ofRow: r))\""
        }
        let page = images == nil ? "" : adapter.sections[info.section].file
        let canvas = HTMLCanvas(images: images.map { link in { link($0, page) } })
        adapter.drawCell(row: r, into: canvas)
        return
            "<div class=\"\(classes)\" id=\"r\(r)\" data-index=\"\(r)\" data-section=\"\(info.section)\" data-row=\"\(info.row)\" data-floor=\"\(HTMLText.escaped(info.floor))\" data-type=\"\(HTMLText.escaped(info.type))\"\(plugin)\(column)\(paging) style=\"top:\(HTMLText.px(info.y));height:\(HTMLText.px(info.height))\(frame)\">"
            + canvas.html + "</div>\n"
    }

    /// The diagnostics as a list: level, message, and the JSON path when there is one.
    public static func diagnosticsList(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "<section class=\"diagnostics\" hidden></section>\n" }
        var html = "<section class=\"diagnostics\"><h2>Diagnostics</h2><ul>"
        for d in diagnostics {
            html += "<li class=\"\(d.level.rawValue)\"><b>\(d.level.rawValue)</b> "
            if let path = d.path { html += "<code>\(HTMLText.escaped(path))</code> " }
            html += HTMLText.escaped(d.message) + "</li>"
        }
        return html + "</ul></section>\n"
    }

    /// The font set (FontSet, Fonts.lock) as CSS faces: Noto Sans, Noto Sans CJK and Noto Color Emoji, the
    /// weights 600-900 from the Bold files (as the host measures them). With a `route` (the preview's
    /// `/fonts/`, FloorServe) the faces are the files it serves; without (a `--format html` file, which
    /// fetches nothing), the same fonts installed on the machine. `font-display: swap`: the rows paint at once
    /// (in a fallback face) while the font files load, then take the measured faces; the lines stay where
    /// the host broke them either way.
    ///
    /// With a `subset` (the preview's page fonts, FloorServe's FontSubsets), two more faces: the CJK regular
    /// and bold cut to the page's characters, `<route><subset.folder>/<file>.otf`, for `subset.ranges` only.
    /// Declared last, they are the ones the browser takes for those characters (CSS Fonts: of faces alike
    /// but for their ranges, the last declared is tried first); anything else uses the whole file's face,
    /// which the browser then fetches. A subset that fails to load falls back to the whole file.
    public static func fontFaces(route: String?, subset: (folder: String, ranges: String)? = nil) -> String {
        func face(_ family: String, _ role: FontSet.File.Role, weights: String, local: String) -> String {
            let file = FontSet.file(role).fileName
            let source = route.map { "url(\"\($0)\(file)\")" } ?? "local(\"\(local)\")"
            return "@font-face{font-family:\(family);src:\(source);font-weight:\(weights);font-display:swap}\n"
        }
        func cut(_ role: FontSet.File.Role, weights: String) -> String {
            guard let route, let subset else { return "" }
            let file = FontSet.file(role).fileName
            return
                "@font-face{font-family:FloorCJK;src:url(\"\(route)\(subset.folder)/\(file).otf\") format(\"opentype\"),"
                + "url(\"\(route)\(file)\");font-weight:\(weights);font-display:swap;unicode-range:\(subset.ranges)}\n"
        }
        return face("FloorSans", .sans, weights: "100 500", local: "Noto Sans Regular")
            + face("FloorSans", .sansBold, weights: "600 900", local: "Noto Sans Bold")
            + face("FloorCJK", .cjk, weights: "100 500", local: "Noto Sans CJK JP")
            + face("FloorCJK", .cjkBold, weights: "600 900", local: "Noto Sans CJK JP Bold")
            + face("FloorEmoji", .emoji, weights: "100 900", local: "Noto Color Emoji")
            + cut(.cjk, weights: "100 500") + cut(.cjkBold, weights: "600 900")
    }

    /// The look of a phone page: system UI fonts with CJK fallbacks (lang="zh-CN" picks simplified glyphs),
    /// text inside the 12-point lines plugins draw on, soft image placeholders, hairline rules.
    ///
    /// A text line is a 12 px box at its `y` (floor_abi.h: the line occupies y to y + 12) whose glyphs must
    /// stay inside it: the next line starts 12 px below, and a title's subtitle sat against it when text
    /// was 12 to 14 px on a 12 px line-height (a font's glyphs reach about 1.1 em from the tops of capitals
    /// and CJK to the bottoms of descenders, so such text filled its line or spilled into the next, and the
    /// box clipped what spilled: descenders cut off, lines touching). So every style is 9.5 px (weight and
    /// colour set titles and prices apart), at most 11 px of glyphs, and a 9 px `line-height` puts them in
    /// the middle of the box, since fonts' ascents are larger than their descents (Noto Sans CJK SC, the
    /// CJK font on Linux: ascent 1.16 em, descent 0.288 em) and a 12 px line-height sets the baseline low. At 9.5 px a character is about 5 px wide on average, the width plugins measure
    /// (measure_text), so measured text is seldom cut. HTMLRendererTests checks every style against these
    /// metrics.
    ///
    /// ABI 1.5's text blocks (`span.tl`, one a line the host broke) are real type: the font set's files
    /// (`fontFaces`), the style's size, line height and weight, the advances the host measured
    /// (`text-rendering: geometricPrecision`: unhinted, subpixel-positioned), no wrapping and no clipping,
    /// and neither CJK punctuation trimming nor CJK-Latin spacing, which the host does not do either.
    public static let stylesheet =
        fontFaces(route: nil) + """
            *{box-sizing:border-box}
            body{margin:0;background:#e9ebef;font-family:-apple-system,"SF Pro Text","PingFang SC","Hiragino Sans GB","Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","Microsoft YaHei","WenQuanYi Micro Hei",system-ui,sans-serif;color:#1f2329;-webkit-font-smoothing:antialiased}
            .stage{display:flex;gap:24px;align-items:flex-start;justify-content:center;padding:24px;flex-wrap:wrap}
            .phone{background:#fff;border-radius:36px;box-shadow:0 0 0 10px #1d1e22,0 18px 50px rgba(0,0,0,.35);overflow:hidden;flex:none;position:relative}
            .statusbar{height:34px;display:flex;justify-content:space-between;align-items:flex-end;padding:0 26px 4px;font-size:13px;font-weight:600}
            .statusbar .signal{font-size:10px;letter-spacing:1px}
            .navbar{height:44px;display:flex;align-items:center;justify-content:center;border-bottom:1px solid #f0f1f3;background:#fff;position:relative;z-index:3}
            .navtitle{font-size:16px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:80%}
            .screen{position:relative;overflow-y:auto;overflow-x:hidden;background:#f5f6f8;scrollbar-width:none}
            .screen::-webkit-scrollbar{display:none}
            .page{position:relative;width:100%}
            .row{position:absolute;left:0;right:0;background:#fff;overflow:hidden}
            .row.item{border-radius:8px}
            .row.header{background:#fafafb}
            .row.tappable{cursor:pointer}
            .row.tappable:hover{background:#fcfcfd}
            .row.selected{outline:2px solid #4c7cf3;outline-offset:-2px}
            .row.placeholder{background:#fff5f5}
            .row.placeholder .box{border:1px dashed #e4393c;background:transparent}
            .row.placeholder .t{color:#c0282b}
            .t{position:absolute;height:12px;font-size:9.5px;line-height:9px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
            .t.bold{font-weight:600}
            .t.muted{color:#8a8f99}
            .t.accent{color:#e4393c;font-weight:600}
            .t.strike{text-decoration:line-through}
            .fill{position:absolute}
            .fill.subtle{background:#f5f6f8}
            .fill.muted{background:#e5e6eb}
            .fill.accent{background:#fdecec}
            .t.center{text-align:center}
            .tl{position:absolute;white-space:pre;overflow:visible;font-family:FloorSans,FloorCJK,FloorEmoji;text-rendering:geometricPrecision;font-kerning:normal;font-synthesis:none;text-spacing-trim:space-all;text-autospace:no-autospace}
            .tl.caption{font-size:12px;line-height:16px}
            .tl.footnote{font-size:13px;line-height:18px}
            .tl.body{font-size:15px;line-height:20px}
            .tl.headline{font-size:17px;line-height:22px}
            .tl.title{font-size:20px;line-height:25px}
            .tl.w400{font-weight:400}
            .tl.w600{font-weight:600}
            .tl.w700{font-weight:700}
            .tl.muted{color:#8a8f99}
            .tl.accent{color:#e4393c}
            .tl.strike{text-decoration:line-through}
            .img{position:absolute;border-radius:8px;background:linear-gradient(135deg,#eef1f6,#e2e7ef);display:flex;align-items:center;justify-content:center;overflow:hidden}
            .img span{font-size:10px;color:#8a93a3;padding:0 4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:100%}
            .img span::before{content:"▧ ";color:#b3bccb}
            .box{position:absolute;border:1px solid #e5e6eb;border-radius:6px}
            .rule{position:absolute;border-top:1px solid #f0f1f3;height:0!important}
            .pinned{position:sticky;top:0;height:0;z-index:2}
            .pinned .row{box-shadow:0 1px 3px rgba(0,0,0,.08)}
            .feedstate{font-size:12px;color:#8a8f99;text-align:center;height:0}
            .diagnostics{max-width:520px;font-size:13px;background:#fff;border-radius:10px;padding:12px 16px}
            .diagnostics h2{font-size:14px;margin:0 0 8px}
            .diagnostics ul{margin:0;padding-left:18px}
            .diagnostics li{margin:4px 0;word-break:break-word}
            .diagnostics li.error b{color:#c0282b}
            .diagnostics li.warning b{color:#b7791f}
            .diagnostics code{background:#f3f4f6;border-radius:4px;padding:0 4px}
            """
}
