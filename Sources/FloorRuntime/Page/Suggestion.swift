/// The known name a misspelt one most likely meant ("IconGird", "productfeed" → "IconGrid", "ProductFeed"),
/// for messages that end with "did you mean '...'?". Names compare case-insensitively by edit distance
/// (insertions, deletions, substitutions and swaps of two neighbours each count one); a name counts as
/// meant when it is at most a third of the typed name's length away (at least 1, at most 3), and the
/// nearest wins (the first of equals in `candidates`' order). Pure; for floor types today, schema field
/// names later.
public enum Suggestion {
    public static func closest(to typed: String, among candidates: some Sequence<String>) -> String? {
        let word = Array(typed.lowercased().unicodeScalars)
        let limit = min(3, max(1, word.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased().unicodeScalars), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The known field an unknown one is a near miss of, when it is one: the same name but for case, or one
    /// edit (an insertion, a deletion, a replacement, a swap of two neighbours) from a known name of 4 or more
    /// characters ("colums", "nxt" for "next" is a deletion from a 4-character name, "Title"). A near miss is
    /// an error (the editor meant the known field, which the page then lacks); any other unknown field is
    /// metadata a CMS carries (an `id`, a version, a timestamp), ignored with a warning (ARCHITECTURE.md,
    /// "Diagnostics"). The first match in `known`'s order wins.
    public static func nearMiss(_ typed: String, among known: some Sequence<String>) -> String? {
        let word = Array(typed.unicodeScalars)
        let lower = typed.lowercased()
        for name in known where name != typed {
            if name.lowercased() == lower { return name }
            let candidate = Array(name.unicodeScalars)
            if candidate.count >= 4, editDistance(word, candidate, limit: 1) <= 1 { return name }
        }
        return nil
    }

    /// The message's tail: " (did you mean 'X'?)" or "".
    public static func didYouMean(_ typed: String, among candidates: some Sequence<String>) -> String {
        closest(to: typed, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance; anything past `limit` is reported as `limit + 1`, so that long
    /// unrelated names cost little.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
                smallest = min(smallest, d)
            }
            if smallest > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return min(previous[b.count], limit + 1)
    }
}
