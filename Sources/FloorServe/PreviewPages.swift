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
    /// sends as the tab reports where it is scrolled (the first report comes as the page loads). A page
    /// that does not decode is the same frame with `error` (file:line:column: reason) shown over it, so it
    /// shows before the script runs; the script draws the page once the file is fixed, without a reload.
    /// `faces`: the CSS font faces (FontRoute.fontFaces, or the page's own with its cut CJK faces, FontSubsets).
    package static func page(
        session id: String, path: String, phone: PhoneSize, title: String?, error: String? = nil,
        faces: String = FontRoute.fontFaces
    ) -> String {
        let extra = """
            <aside class="panels">
            <nav class="tools"><a href="/">← pages</a> \(deviceMenu(phone)) <a href="/layout/\(urlPath(path))">json</a></nav>
            <section class="panel action"><h2>Action</h2><pre id="action">tap an item on the page</pre></section>
            <section class="panel"><h2>Events</h2><ol id="events"></ol></section>
            <section class="panel"><h2>Diagnostics</h2><ul id="diagnostics"></ul></section>
            </aside>
            <div id="error" class="pageerror"\(error.map { "><div class=\"what\">\(HTMLText.escaped($0))</div>" } ?? " hidden>")</div>
            <style>\(ClientScript.stylesheet)</style>
            <style>\(faces)</style>
            <script>const FLOOR_SESSION = "\(id)";</script><script src="\(ClientScript.address)"></script>
            """
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return HTMLRenderer.document(
            title: title, file: file, width: phone.width, screenHeight: phone.height,
            pageHeight: 0, rows: "", diagnostics: [], extra: extra)
    }

    /// The device menu (DevicePreset.all, and "Custom" for any other size), the width field (280 to 1,024
    /// points), the screen height, and the zoom the phone is shown at (the script fits the phone in the
    /// window: 100 % when it fits). The script switches devices in place (no reload).
    package static func deviceMenu(_ phone: PhoneSize) -> String {
        let chosen = DevicePreset.of(phone)
        var options = ""
        for preset in DevicePreset.all {
            let selected = preset == chosen ? " selected" : ""
            options +=
                "<option value=\"\(preset.slug)\" data-width=\"\(Int(preset.size.width))\" data-height=\"\(Int(preset.size.height))\"\(selected)>\(preset.name) · \(Int(preset.size.width))×\(Int(preset.size.height))</option>"
        }
        options += "<option value=\"custom\"\(chosen == nil ? " selected" : "")>Custom</option>"
        return """
            <span class="device"><select id="device" title="device">\(options)</select>\
            <label>W <input id="width" type="number" min="280" max="1024" step="1" value="\(Int(phone.width))"></label>\
            <span id="screensize">× \(Int(phone.height))</span> <span id="zoom" title="zoom">100%</span></span>
            """
    }

    /// A `/page/...` whose device, width or height was refused: the reason and the devices, as a page.
    package static func sizeRefused(_ message: String, path: String) -> String {
        var list = ""
        for preset in DevicePreset.all {
            list +=
                "<li><a href=\"/page/\(urlPath(path))?device=\(preset.slug)\">\(preset.name)</a> <span class=\"meta\">\(Int(preset.size.width))×\(Int(preset.size.height))</span></li>"
        }
        return """
            <!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>floorhost serve: no such screen</title>
            <style>\(HTMLRenderer.stylesheet)
            .index{background:#fff;border-radius:12px;padding:20px 28px;min-width:420px;max-width:640px}
            .index h1{font-size:18px}.index li{margin:6px 0}.meta{color:#8a8f99;font-size:12px}
            .refused{color:#c0282b}</style></head>
            <body><main class="stage"><section class="index"><h1>\(HTMLText.escaped(path))</h1>
            <p class="refused">\(HTMLText.escaped(message))</p><p>Open it on one of these, or with <code>?width=280…1024</code>:</p>
            <ul>\(list)</ul></section></main></body></html>
            """
    }

    /// A relative page path as a URL path: each segment percent-encoded.
    package static func urlPath(_ path: String) -> String {
        path.split(separator: "/").map { segment in
            segment.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/?#"))) ?? ""
        }.joined(separator: "/")
    }
}
