/// A line diff in the unified format people read in code review: hunks headed `@@ -a,b +c,d @@`, lines
/// kept as context (` `), removed (`-`) and added (`+`), with `context` unchanged lines around each
/// change. Longest common subsequence by dynamic programming: O(n·m) for the few hundred lines of a
/// snapshot; inputs past `limit` lines each are compared as wholes instead.
package enum LineDiff {
    package static let limit = 4000

    package static func unified(old: String, new: String, context: Int = 2) -> [String] {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a.count <= limit && b.count <= limit else {
            return ["@@ -1,\(a.count) +1,\(b.count) @@"] + a.map { "-" + $0 } + b.map { "+" + $0 }
        }
        // lcs[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lcs = [[Int32]](repeating: [Int32](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        // The edit script: (kind, old index, new index).
        var script: [(Character, Int, Int)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                script.append((" ", i, j))
                i += 1
                j += 1
            }
            // Removals before additions, as diff(1) writes them.
            else if i < a.count && (j == b.count || lcs[i + 1][j] >= lcs[i][j + 1]) {
                script.append(("-", i, j))
                i += 1
            } else {
                script.append(("+", i, j))
                j += 1
            }
        }
        var lines: [String] = []
        var k = 0
        while k < script.count {
            guard script[k].0 != " " else {
                k += 1
                continue
            }
            // A hunk: from `context` lines before this change to `context` lines after the last change
            // that is within 2 * context lines of the previous one.
            let start = max(0, k - context)
            var end = k
            while end < script.count {
                if script[end].0 != " " {
                    end += 1
                    continue
                }
                let run = script[end...].prefix { $0.0 == " " }.count
                if end + run < script.count && run <= 2 * context {
                    end += run
                } else {
                    end = min(script.count, end + context)
                    break
                }
            }
            let hunk = script[start..<end]
            let oldCount = hunk.filter { $0.0 != "+" }.count
            let newCount = hunk.filter { $0.0 != "-" }.count
            lines.append("@@ -\(hunk.first!.1 + 1),\(oldCount) +\(hunk.first!.2 + 1),\(newCount) @@")
            for (kind, oi, nj) in hunk { lines.append(String(kind) + (kind == "+" ? b[nj] : a[oi])) }
            k = end
        }
        return lines
    }
}
