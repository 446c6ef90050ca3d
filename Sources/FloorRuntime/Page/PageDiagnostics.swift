import FloorCore

/// The diagnostics of one page file, gathered while it is decoded, each at the byte offset of what it is
/// about; `diagnostics(in:)` gives them their line and column in one pass over the bytes (only when there is
/// something to say) and the one text form every output prints (ARCHITECTURE.md, "Diagnostics"):
///
///     home.json:9:38: floors[1].colums (floor 'g1'): unknown field of IconGrid; did you mean 'columns'? (ignored)
package struct PageDiagnostics {
    package let file: String
    private var pending: [Pending] = []

    private struct Pending {
        var level: Diagnostic.Level
        var path: String
        var floorID: String?
        var message: String
        var plugin: String?
        var consequence: Diagnostic.Consequence?
        var offset: Int
        /// Where `offset` is, once worked out (`resolve`).
        var position: SourcePosition?
        var resolved = false
    }

    /// Works positions out in one pass forward through the page (`resolve`, then `diagnostics`).
    private var counter: SourcePosition.Counter?

    package init(file: String) { self.file = file }

    package var isEmpty: Bool { pending.isEmpty }

    /// Something about `path` (of floor `floorID`, when it is in one) at byte `offset` of the page.
    package mutating func add(
        _ level: Diagnostic.Level, _ message: String, path: String, floorID: String? = nil, plugin: String? = nil,
        consequence: Diagnostic.Consequence?, at offset: Int
    ) {
        pending.append(
            Pending(
                level: level, path: path, floorID: floorID, message: message, plugin: plugin,
                consequence: consequence, offset: offset))
    }

    /// A problem of the page object itself: said after those of its kind already added and before anything
    /// else, wherever on the page it is (a streamed scan meets a problem after `floors` once the floors'
    /// diagnostics are added).
    package mutating func add(pageProblem problem: ScanProblem) {
        pending.insert(
            Pending(
                level: problem.level, path: problem.path, floorID: nil, message: problem.message, plugin: nil,
                consequence: problem.consequence, offset: problem.offset),
            at: pageProblems)
        pageProblems += 1
    }

    /// Forgets everything but the page object's problems (the floors said so far are not the page's).
    package mutating func dropAllButPageProblems() {
        pending.removeSubrange(pageProblems...)
    }

    /// How many of `pending`, from its start, are the page object's problems.
    private var pageProblems = 0

    /// A problem the page scan found, in a floor when `floorID` is given.
    package mutating func add(_ problem: ScanProblem, floorID: String? = nil) {
        add(
            problem.level, problem.message, path: problem.path, floorID: floorID, consequence: problem.consequence,
            at: problem.offset)
    }

    /// Works out now the positions of the diagnostics added so far at offsets before `end`: the caller will
    /// not keep `bytes` before `end` (PageDecoder hands a decoded floor's bytes back). Every diagnostic added
    /// after this must be at `end` or later; one before it is given without a position. `counted`: where
    /// `end` is, when the caller knows (the scan counted it), so the bytes up to it need not be counted here.
    package mutating func resolve(
        before end: Int, in bytes: UnsafeRawBufferPointer, counted: SourcePosition? = nil
    ) {
        var counter = self.counter ?? SourcePosition.Counter(bytes)
        defer { self.counter = counter }
        let waiting = pending.indices.filter { !pending[$0].resolved && pending[$0].offset < end }
        for i in waiting.sorted(by: { pending[$0].offset < pending[$1].offset }) {
            pending[i].position = counter.position(of: pending[i].offset, in: bytes)
            pending[i].resolved = true
        }
        // Every byte before `end` counted now: a position after it is counted from here, not from bytes gone.
        if let counted {
            counter.skip(to: counted)
        } else if end < bytes.count {
            _ = counter.position(of: end, in: bytes)
        }
    }

    /// The diagnostics in the order they were added, positioned in `bytes` (the page's bytes; after
    /// `resolve(before:)`, only those from that offset on are read).
    package mutating func diagnostics(in bytes: UnsafeRawBufferPointer) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        resolve(before: Int.max, in: bytes)
        return pending.map { p in
            let position = p.position
            let at = position.map { ":\($0.line):\($0.column)" } ?? ""
            let floor = p.floorID.map { " (floor '\($0)')" } ?? ""
            let what = p.path.isEmpty ? "" : "\(p.path)\(floor): "
            let consequence = p.consequence.map { " (\($0.rawValue))" } ?? ""
            return Diagnostic(
                p.level, "\(file)\(at): \(what)\(p.message)\(consequence)", file: file, plugin: p.plugin,
                path: p.path, consequence: p.consequence, position: position, about: p.message + consequence)
        }
    }
}
