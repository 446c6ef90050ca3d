/// The rows `expand` last listed for a floor (`AnyFloorBox.rows`), kept as runs: rows of one type and flags
/// whose items follow one another (item k, k+1, k+2...) are one 16-byte run. A feed lists one row per item, so
/// its 43,000 cards are one run where a row each took 12 bytes (0.52 MB of the 8 MB benchmark page, held
/// until the render ends; BENCHMARKS.md, "Peak memory"). A floor whose rows do not follow their items (a
/// header, a margin, a strip) costs a run each of those rows.
///
/// Contract: reads as the list of rows appended, in order (`self[i]` is row i as it was appended; a row's
/// item is clamped to Int32 as ListedRow's is). Row `i` is found in O(log runs); appending a row or a run
/// and inserting rows cost O(runs after the place + rows inserted), not O(rows in the floor).
struct ListedRows: RandomAccessCollection, Equatable {
    /// The rows from the previous run's end (0 for the first) to `end`: the k-th of them draws item
    /// `firstItem + k`, all with `type` and `flags`.
    private struct Run: Equatable {
        var end: Int32
        var type: Int32
        var flags: UInt32
        var firstItem: Int32

        func count(after previous: Int32) -> Int32 { end - previous }
    }

    private var runs: [Run] = []

    init() {}

    init(_ rows: some Sequence<ListedRow>) {
        for row in rows { append(row) }
    }

    /// How many runs hold the rows (what `ListedRowsTests` counts).
    var runCount: Int { runs.count }

    var startIndex: Int { 0 }
    var endIndex: Int { runs.last.map { Int($0.end) } ?? 0 }
    var count: Int { endIndex }

    subscript(row: Int) -> ListedRow {
        runs.withUnsafeBufferPointer { runs in
            precondition(row >= 0 && row < (runs.last.map { Int($0.end) } ?? 0), "row \(row) out of range")
            // The first run that ends after `row`.
            var low = 0
            var high = runs.count - 1
            while low < high {
                let mid = (low + high) / 2
                if Int(runs[mid].end) > row { high = mid } else { low = mid + 1 }
            }
            let run = runs[low]
            let start = low == 0 ? 0 : Int(runs[low - 1].end)
            return ListedRow(type: run.type, item: Int(run.firstItem) + (row - start), flags: run.flags)
        }
    }

    mutating func append(_ row: ListedRow) {
        appendRun(type: row.type, flags: row.flags, firstItem: Int32(row.item), count: 1)
    }

    /// Appends `count` rows drawing items `firstItem`, `firstItem + 1`...: onto the last run when they
    /// continue it.
    mutating func appendRun(type: Int32, flags: UInt32, firstItem: Int32, count: Int32) {
        guard count > 0 else { return }
        let end = Int32(endIndex)
        if let last = runs.last, last.type == type, last.flags == flags {
            let lastStart = runs.count == 1 ? 0 : runs[runs.count - 2].end
            // Compared in Int: an item clamped at Int32.max is not followed by anything.
            if Int(last.firstItem) + Int(last.count(after: lastStart)) == Int(firstItem) {
                runs[runs.count - 1].end = end + count
                return
            }
        }
        runs.append(Run(end: end + count, type: type, flags: flags, firstItem: firstItem))
    }

    /// Calls `body(type, flags, count)` for the rows from `start` on, a run (or the part of it from `start`) at
    /// a time, in order: listing rows costs a call per run, not a look-up per row.
    func forEachRun(from start: Int, _ body: (_ type: Int32, _ flags: UInt32, _ count: Int) -> Void) {
        var previous = 0
        for run in runs {
            let end = Int(run.end)
            if end > start { body(run.type, run.flags, end - Swift.max(previous, start)) }
            previous = end
        }
    }

    /// Puts `rows` before row `index` (`endIndex`: after the last), a run at a time.
    mutating func insert(contentsOf rows: ListedRows, at index: Int) {
        precondition(index >= 0 && index <= endIndex, "insert at \(index) of \(endIndex)")
        // The runs from the one holding row `index` on come off, the part of it before `index` goes back,
        // then the new rows, then the rest.
        var cut = runs.count
        while cut > 0 && Int(runs[cut - 1].end) > index { cut -= 1 }
        let start = cut == 0 ? Int32(0) : runs[cut - 1].end
        var tail: [(type: Int32, flags: UInt32, firstItem: Int32, count: Int32)] = []
        var previous = start
        for run in runs[cut...] {
            tail.append((run.type, run.flags, run.firstItem, run.count(after: previous)))
            previous = run.end
        }
        runs.removeSubrange(cut...)
        if let first = tail.first {
            let before = Int32(index) - start
            appendRun(type: first.type, flags: first.flags, firstItem: first.firstItem, count: before)
            tail[0] = (first.type, first.flags, first.firstItem + before, first.count - before)
        }
        var end: Int32 = 0  // where the previous of `rows`' runs ended
        for run in rows.runs {
            appendRun(type: run.type, flags: run.flags, firstItem: run.firstItem, count: run.count(after: end))
            end = run.end
        }
        for run in tail { appendRun(type: run.type, flags: run.flags, firstItem: run.firstItem, count: run.count) }
    }
}
