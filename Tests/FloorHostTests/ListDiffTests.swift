import FloorConform
import FloorLayout
import FloorSession
import Testing

/// Heckel's algorithm on plain lists: what it pairs, what it calls a move, and, on random lists, that
/// applying the diff to the old list gives the new one.
struct ListDiffTests {
    private func diff(_ old: [String], _ new: [String], content: [String: Int] = [:], newContent: [String: Int] = [:])
        -> ListDiff
    {
        ListDiff(old: old, new: new) { j, i in content[old[j], default: 0] == newContent[new[i], default: 0] }
    }

    @Test func insertsAndDeletesAreTheUnpairedElements() {
        let d = diff(["a", "b", "c"], ["a", "x", "c", "y"])
        #expect(d.oldIndexOfNew == [0, nil, 2, nil])
        #expect(d.inserts == [1, 3])
        #expect(d.deletes == [1])
        #expect(d.moves.isEmpty && d.updates.isEmpty)
    }

    @Test func movingOneElementIsOneMoveNotOnePerElementItJumped() {
        let d = diff(["a", "b", "c", "d", "e"], ["b", "c", "d", "e", "a"])
        #expect(d.moves == [4], "only 'a' moved; b..e kept their order")
        let back = diff(["a", "b", "c", "d", "e"], ["e", "a", "b", "c", "d"])
        #expect(back.moves == [0])
    }

    @Test func aPairWhoseContentDiffersIsAnUpdate() {
        let d = diff(["a", "b"], ["b", "a"], content: ["a": 1], newContent: ["a": 2])
        #expect(d.updates == [1])
        #expect(d.moves.count == 1)
    }

    @Test func repeatedKeysAreNoAnchorsButNeighboursOfAnAnchorPair() {
        // 'x' occurs twice in both: the anchors a and b lead to them, forwards and backwards.
        let d = diff(["a", "x", "x", "b"], ["a", "x", "x", "b"])
        #expect(d.oldIndexOfNew == [0, 1, 2, 3])
        #expect(d.isEmpty)
        // Nothing unique at all: nothing pairs; every element is deleted and inserted again.
        let lost = diff(["x", "x"], ["x", "x"])
        #expect(lost.oldIndexOfNew == [nil, nil])
        #expect(lost.deletes == [0, 1] && lost.inserts == [0, 1])
    }

    @Test func randomListsApplyToTheNewList() {
        var random = SeededRandom(state: 13)
        for round in 0..<500 {
            // Keys from a small alphabet, so some repeat; each element's content is its key and a version.
            let alphabet = (0..<random.int(1...12)).map { "k\($0)" }
            let old = (0..<random.int(0...14)).map { _ in (random.pick(alphabet), random.int(0...2)) }
            var new = old
            for _ in 0..<random.int(0...6) {
                switch random.int(0...3) {
                case 0: new.insert((random.pick(alphabet), random.int(0...2)), at: random.int(0...new.count))
                case 1 where !new.isEmpty: new.remove(at: random.int(0...(new.count - 1)))
                case 2 where !new.isEmpty:
                    let moved = new.remove(at: random.int(0...(new.count - 1)))
                    new.insert(moved, at: random.int(0...new.count))
                case 3 where !new.isEmpty: new[random.int(0...(new.count - 1))].1 += 1
                default: break
                }
            }
            let d = ListDiff(old: old.map(\.0), new: new.map(\.0)) { j, i in old[j].1 == new[i].1 }
            let applied = d.apply(to: old, new: new)
            #expect(
                applied.map(\.0) == new.map(\.0) && applied.map(\.1) == new.map(\.1), "round \(round): \(old) -> \(new)"
            )
            // Pairs only join equal keys, and each old element pairs at most once.
            for (i, j) in d.oldIndexOfNew.enumerated() {
                if let j { #expect(old[j].0 == new[i].0 && d.newIndexOfOld[j] == i) }
            }
            // Unchanged lists diff to nothing.
            #expect(ListDiff(old: old.map(\.0), new: old.map(\.0)) { _, _ in true }.moves.isEmpty)
        }
    }
}
