import FloorRender
import FloorSession
import Foundation

/// The HTML `serve` answers with: the index of pages, a page in the phone frame (with the panels and the
/// client script), and a page that does not decode (its file:line:column message). Everything from a
/// page or plugin is escaped (HTMLText); session ids and numbers are the server's own.
package enum PreviewPages {
    package static func index(_ entries: [PageIndex.Entry], rootArgument: String) -> String {
        var list = ""
        for entry in entries {
            let link = "/page/" + urlPath(entry.path)
            list += "<li><a href=\"\(link)\">\(HTMLText.escaped(entry.path))</a>"
            if let title = entry.title { list += " <span class=\"ttl\">\(HTMLText.escaped(title))</span>" }
            list += " <span class=\"meta\">\(entry.floors) floor\(entry.floors == 1 ? "" : "s")</span>"
            if let of = entry.nextOf { list += " <span class=\"next\">next page of \(HTMLText.escaped(of))</span>" }
            list += " <a class=\"json\" href=\"/layout/\(urlPath(entry.path))\">json</a></li>\n"
        }
        if entries.isEmpty {
            list = "<li class=\"meta\">no pages (*.json files that read as a page) under this folder</li>"
        }
        return """
            <!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>floorhost serve</title>
            <style>\(HTMLRenderer.stylesheet)
            .index{background:#fff;border-radius:12px;padding:20px 28px;min-width:420px}
            .index h1{font-size:18px}.index li{margin:6px 0}.ttl{color:#1f2329}.meta,.next{color:#8a8f99;font-size:12px}
            .next{background:#f3f4f6;border-radius:4px;padding:0 6px}.json{font-size:12px;color:#4c7cf3}</style></head>
            <body><main class="stage"><section class="index"><h1>Pages under \(HTMLText.escaped(rootArgument))</h1>
            <ul class="pages">\(list)</ul></section></main></body></html>
            """
    }

    /// A page being previewed: the phone frame, title and panels; the script draws the rows the server
    /// sends as the tab reports where it is scrolled (the first report comes as the page loads).
    package static func page(session id: String, path: String, phone: PhoneSize, title: String?) -> String {
        var switcher = ""
        for size in PhoneSize.all {
            let w = Int(size.width)
            switcher += size == phone ? "<b>\(w)</b>" : "<a href=\"/page/\(urlPath(path))?width=\(w)\">\(w)</a>"
        }
        let extra = """
            <aside class="panels">
            <nav class="tools"><a href="/">← pages</a> <span class="widths">\(switcher)</span> <a href="/layout/\(urlPath(path))">json</a></nav>
            <section class="panel action"><h2>Action</h2><pre id="action">tap an item on the page</pre></section>
            <section class="panel"><h2>Events</h2><ol id="events"></ol></section>
            <section class="panel"><h2>Diagnostics</h2><ul id="diagnostics"></ul></section>
            </aside>
            <div id="error" class="pageerror" hidden></div>
            <style>\(ClientScript.stylesheet)</style>
            <style>\(FontRoute.fontFaces)</style>
            <script>const FLOOR_SESSION = "\(id)";\n\(ClientScript.source)</script>
            """
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return HTMLRenderer.document(
            title: title, file: file, width: phone.width, screenHeight: phone.height,
            pageHeight: 0, rows: "", diagnostics: [], extra: extra)
    }

    /// A page that does not decode: its message (file:line:column: reason) instead of the page. The tab
    /// still watches the file and shows the page once it is fixed.
    package static func error(_ message: String, file: String, session id: String) -> String {
        let extra = """
            <div id="error" class="pageerror">\(HTMLText.escaped(message))</div>
            <style>\(ClientScript.stylesheet)</style>
            <script>window.floorReloadWhenFixed = true; const FLOOR_SESSION = "\(id)";\n\(ClientScript.source)</script>
            """
        return HTMLRenderer.document(
            title: "\(file) · error", file: file, width: PhoneSize.standard.width, screenHeight: 200,
            pageHeight: 0, rows: "", diagnostics: [], extra: extra)
    }

    /// A relative page path as a URL path: each segment percent-encoded.
    package static func urlPath(_ path: String) -> String {
        path.split(separator: "/").map { segment in
            segment.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/?#"))) ?? ""
        }.joined(separator: "/")
    }
}
