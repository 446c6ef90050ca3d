/// One problem at many places, told once: 50,000 duplicate keys in one object, or 10,000 items each missing
/// the same field, are one diagnostic with its count and its first places, not 49,999 lines.
///
/// The contract (ARCHITECTURE.md, "Diagnostics"): diagnostics of one kind (the same level, file, plugin,
/// consequence and `about`, what they say without where) more than `above` (10) times are grouped into one,
/// in the place of the kind's first; 10 or fewer stay as they are, each with its own line (six fields of a
/// floor holding U+0000 are six places an editor fixes one by one). A group keeps its first member's path
/// and position, has `count` (how many it stands for) and `paths` (the first `shown`, 3, members' paths),
/// and its message is the first's followed by the count and the first places:
///
///     error: big.json:1:30: floors[0].x (floor 'f'): duplicate key 'x'; the last value is used (ignored);
///       49,999 times in all, the first at floors[0].x 1:30, floors[0].x 1:38, floors[0].x 1:46
///
/// Every output a person reads groups (the text lines of every command, `view`, `serve`'s Diagnostics
/// panel and answers, html, and `--format json` of a page); `check --format json` keeps every diagnostic,
/// one per place, for pipelines that map each path to a field of their editor. Grouping is one pass,
/// proportional to the diagnostics.
extension Diagnostic {
    /// How many of one kind are told one by one; more are grouped.
    public static let groupedAbove = 10
    /// How many places a group lists: its first members'.
    public static let placesShown = 3

    public static func grouped(
        _ list: [Diagnostic], above: Int = groupedAbove, shown: Int = placesShown
    ) -> [Diagnostic] {
        guard list.count > above else { return list }
        struct Kind: Hashable {
            let level: Level
            let file: String?
            let plugin: String?
            let consequence: Consequence?
            let about: String
        }
        func kind(_ d: Diagnostic) -> Kind {
            Kind(
                level: d.level, file: d.file, plugin: d.plugin, consequence: d.consequence, about: d.about ?? d.message)
        }
        var members: [Kind: [Int]] = [:]
        for (i, d) in list.enumerated() { members[kind(d), default: []].append(i) }
        guard members.values.contains(where: { $0.count > above }) else { return list }
        var out: [Diagnostic] = []
        for (i, d) in list.enumerated() {
            guard let group = members[kind(d)], group.count > above else {
                out.append(d)
                continue
            }
            guard group[0] == i else { continue }
            let first = group.prefix(shown).map { list[$0] }
            var grouped = d
            grouped.count = group.count
            grouped.paths = first.compactMap(\.path)
            let places = first.map { m in
                [m.path, m.position.map { "\($0.line):\($0.column)" }].compactMap { $0 }.joined(separator: " ")
            }
            grouped.message =
                "\(d.message); \(thousands(group.count)) times in all"
                + (places.allSatisfy(\.isEmpty) ? "" : ", the first at " + places.joined(separator: ", "))
            out.append(grouped)
        }
        return out
    }

    /// 49999 as "49,999".
    private static func thousands(_ n: Int) -> String {
        var digits = String(n)
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: i))
            i -= 3
        }
        return digits
    }
}
