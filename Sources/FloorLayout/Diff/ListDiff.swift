/// The difference between two lists whose elements carry an identity (a key) and a content: which
/// elements were inserted, deleted, moved or updated. Heckel's algorithm ("A technique for isolating
/// differences between files", CACM 1978), the one IGListKit's ListDiff uses, in O(n) for the matching
/// plus O(n log n) for the moves:
///
/// 1. every key counts its occurrences in the new and in the old list;
/// 2. a key that occurs exactly once in each list pairs those two elements (an anchor);
/// 3. walking forwards, then backwards, the neighbours of a pair that have equal keys and are not yet
///    paired are paired too (so runs of repeated keys next to an anchor still match).
///
/// Keys that repeat are therefore no anchors: such an element is paired only when a neighbour leads to
/// it, and is otherwise deleted and inserted again. Paired elements are "moved" when they are not part of
/// the longest run of pairs that kept their relative order (the fewest moves that explain the new order,
/// so moving one floor reports one move, not one per floor it jumped over), and "updated" when their
/// contents differ. Pure; any thread.
public struct ListDiff: Sendable, Equatable {
    /// For each new element, the old element it is; nil when inserted.
    public let oldIndexOfNew: [Int?]
    /// For each old element, the new element it became; nil when deleted.
    public let newIndexOfOld: [Int?]
    /// New indices of paired elements that moved, ascending.
    public let moves: [Int]
    /// New indices of paired elements whose content changed, ascending (a moved element may be updated too).
    public let updates: [Int]

    /// New indices of inserted elements, ascending.
    public var inserts: [Int] { oldIndexOfNew.indices.filter { oldIndexOfNew[$0] == nil } }
    /// Old indices of deleted elements, ascending.
    public var deletes: [Int] { newIndexOfOld.indices.filter { newIndexOfOld[$0] == nil } }
    public var isEmpty: Bool {
        moves.isEmpty && updates.isEmpty && !oldIndexOfNew.contains(nil) && !newIndexOfOld.contains(nil)
    }

    /// Diffs `old` against `new` by key; `sameContent(oldIndex, newIndex)` is asked once per pair.
    public init<Key: Hashable>(old: [Key], new: [Key], sameContent: (Int, Int) -> Bool) {
        let pairs = Self.pair(old: old, new: new)
        var newIndexOfOld = [Int?](repeating: nil, count: old.count)
        var updates: [Int] = []
        for (i, j) in pairs.enumerated() {
            guard let j else { continue }
            newIndexOfOld[j] = i
            if !sameContent(j, i) { updates.append(i) }
        }
        oldIndexOfNew = pairs
        self.newIndexOfOld = newIndexOfOld
        self.updates = updates
        moves = Self.moved(pairs)
    }

    /// Heckel's passes: for each new element, the old one it pairs with.
    package static func pair<Key: Hashable>(old: [Key], new: [Key]) -> [Int?] {
        var table: [Entry] = []
        var slot: [Key: Int] = [:]
        table.reserveCapacity(max(old.count, new.count))
        slot.reserveCapacity(max(old.count, new.count))
        func entry(_ key: Key) -> Int {
            if let s = slot[key] { return s }
            slot[key] = table.count
            table.append(Entry())
            return table.count - 1
        }
        let newEntry = new.map(entry)
        for e in newEntry { table[e].inNew += 1 }
        var oldEntry: [Int] = []
        oldEntry.reserveCapacity(old.count)
        for (j, key) in old.enumerated() {
            let e = entry(key)
            oldEntry.append(e)
            table[e].inOld += 1
            table[e].oldIndex = j
        }
        var na = [Int?](repeating: nil, count: new.count)
        var oa = [Int?](repeating: nil, count: old.count)
        // Anchors: keys that occur once in each list.
        for (i, e) in newEntry.enumerated() where table[e].inNew == 1 && table[e].inOld == 1 {
            na[i] = table[e].oldIndex
            oa[table[e].oldIndex] = i
        }
        // Forwards: the element after a pair pairs with the old element after it, when their keys agree.
        if new.count > 1 {
            for i in 0..<(new.count - 1) {
                guard let j = na[i], j + 1 < old.count, na[i + 1] == nil, oa[j + 1] == nil,
                    newEntry[i + 1] == oldEntry[j + 1]
                else { continue }
                na[i + 1] = j + 1
                oa[j + 1] = i + 1
            }
            // Backwards: likewise with the element before.
            for i in stride(from: new.count - 1, to: 0, by: -1) {
                guard let j = na[i], j > 0, na[i - 1] == nil, oa[j - 1] == nil,
                    newEntry[i - 1] == oldEntry[j - 1]
                else { continue }
                na[i - 1] = j - 1
                oa[j - 1] = i - 1
            }
        }
        return na
    }

    /// One symbol table entry of `pair`: occurrences in each list (only 0, 1 or more matters) and, for the
    /// old list, where the key last occurred.
    private struct Entry {
        var inOld = 0
        var inNew = 0
        var oldIndex = 0
    }

    /// The new indices of pairs outside one longest increasing run of old indices (in new order).
    package static func moved(_ pairs: [Int?]) -> [Int] {
        // Patience sorting: tails[k] is the new index ending the best run of length k + 1 found so far.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: pairs.count)
        for (i, j) in pairs.enumerated() {
            guard let j else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if pairs[tails[mid]]! < j { low = mid + 1 } else { high = mid }
            }
            previous[i] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var inRun = [Bool](repeating: false, count: pairs.count)
        var i = tails.last ?? -1
        while i >= 0 {
            inRun[i] = true
            i = previous[i]
        }
        return pairs.indices.filter { pairs[$0] != nil && !inRun[$0] }
    }

    /// Applies the diff to `old` as a batch update does (a table view's): deletions and moved-away elements
    /// leave by old index, then insertions and moved elements arrive at their new index in ascending order;
    /// an updated element takes `new`'s value. The result equals `new` whenever the diff is consistent: what
    /// the property test checks.
    public func apply<T>(to old: [T], new: [T]) -> [T] {
        let moved = Set(moves)
        let updated = Set(updates)
        var leaving = Set(deletes)
        for i in moves { leaving.insert(oldIndexOfNew[i]!) }
        var result: [T] = []
        result.reserveCapacity(new.count)
        // The elements that stay, in old order; updated ones take their new value.
        for (j, element) in old.enumerated() where !leaving.contains(j) {
            let i = newIndexOfOld[j]!
            result.append(updated.contains(i) ? new[i] : element)
        }
        for i in new.indices where oldIndexOfNew[i] == nil || moved.contains(i) {
            let element = oldIndexOfNew[i].map { updated.contains(i) ? new[i] : old[$0] } ?? new[i]
            result.insert(element, at: i)
        }
        return result
    }
}
