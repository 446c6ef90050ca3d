import HostContract

/// What `floorhost view`'s keys do, said three ways from one list: the key line under the page (as many
/// keys as fit the terminal's width, `?` and `q` always among them), the full help `?` shows over the page
/// (every key, wrapped to the width), and `floorhost view --help`.
package enum KeyHelp {
    /// One key or group of keys: how the key line names it, and the full help's line.
    struct Entry {
        let keys: String
        let short: String
        let long: String
        /// Lower stays longer when the key line must drop keys to fit.
        let rank: Int
    }

    /// In the order the key line shows them.
    static let entries = [
        Entry(keys: "j/k", short: "line", long: "j, k, ↓, ↑: scroll a line (the mouse wheel: three)", rank: 2),
        Entry(keys: "space", short: "screen", long: "space, PgDn, f / PgUp, b: scroll a screen down / up", rank: 3),
        Entry(
            keys: "g/G", short: "top/end", long: "g, Home / G, End: the top / the end, loading every next page", rank: 4
        ),
        Entry(
            keys: "Tab", short: "item", long: "Tab / Shift-Tab: select the next / previous tappable item on screen",
            rank: 5),
        Entry(
            keys: "Enter", short: "tap", long: "Enter: tap the selected item; the message line shows its action",
            rank: 6),
        Entry(
            keys: "←/→", short: "page", long: "←, h / →, l: turn the selected (or the first) carousel's page", rank: 8),
        Entry(
            keys: "r", short: "reload",
            long: "r: reload the page, and the plugins if any changed, keeping the position", rank: 7),
        Entry(keys: "R", short: "retry", long: "R: retry a failed next page now", rank: 9),
        Entry(keys: "?", short: "keys", long: "?: this help (any key closes it)", rank: 1),
        Entry(
            keys: "q", short: "quit", long: "q, Ctrl-D, Ctrl-C (exit status 130): quit; diagnostics are listed after",
            rank: 0),
    ]

    /// The key line for a terminal `columns` wide: the keys that fit, taken from the most needed (`q`, `?`
    /// which shows the rest, j/k...) while they fit, shown in the line's order.
    static func line(columns: Int) -> String {
        func text(_ shown: Set<Int>) -> String {
            entries.indices.filter { shown.contains($0) }.map { "\(entries[$0].keys): \(entries[$0].short)" }
                .joined(separator: "  ")
        }
        var shown = Set<Int>()
        for index in entries.indices.sorted(by: { entries[$0].rank < entries[$1].rank }) {
            shown.insert(index)
            if DisplayWidth.of(text(shown)) > columns { shown.remove(index) }
        }
        return text(shown)
    }

    /// The full help, wrapped to `columns` (a long line goes on indented), for `?`.
    static func lines(columns: Int) -> [String] {
        var out = ["Keys (any key closes this help):", ""]
        for entry in entries {
            var line = ""
            for word in entry.long.split(separator: " ") {
                let next = line.isEmpty ? "  " + word : line + " " + word
                if DisplayWidth.of(next) > columns && !line.isEmpty {
                    out.append(line)
                    line = "      " + word
                } else {
                    line = next
                }
            }
            out.append(line)
        }
        return out
    }

    /// `floorhost view --help`.
    package static let abstract = "Scroll a page in the terminal: load-more, sticky headers and taps, as on a phone."

    package static var discussion: String {
        let keys = entries.map { "  " + $0.long }.joined(separator: "\n")
        return """
            Keys (? shows them in the view too; the line under the page names those that fit):
            \(keys)
            A reload measures only the rows that changed (see floorhost diff). After quitting, the \
            diagnostics and what was loaded are printed to stderr. Next pages are fetched while you scroll \
            (a remote page over HTTP, or a file); the status line says when one is loading, failed, or \
            waits for its retry (--retry N). --width lays the page out that many points wide (a phone's \
            375) whatever the terminal's width; by default one column is 5 points.
            Example: floorhost view --plugins Plugins/ Examples/home.json --load-latency 400 --width 375
            Example: floorhost view --plugins Plugins/ http://127.0.0.1:8000/home.json --retry 3
            """
    }
}
