import CFloorABI
import Dispatch
import FloorCore
import FloorLayout
import FoundationEssentials
import Synchronization

/// The `"rows"` of `--format json`: the hot loop of a json render (a 43,000-row page is 43,000 records). Each
/// row is stored as one or two JSONRecords (bytes straight into reserved memory). The floor ids and row type
/// names, which repeat on every row, are escaped once up front.
///
/// A page of many rows is formatted on two threads, in blocks of `blockRows` rows: this thread formats the
/// even blocks while a second one formats the odd blocks, and the blocks are handed to `emit` in order (the
/// bytes are those of one thread). At most two formatted blocks wait (about 100 KB), so the output is still
/// never held whole. Contract: only plugin answers asked before (JSONOutput.init) are read here, and the
/// adapter is only read, from both threads, while `write` runs: nothing changes it meanwhile, and no plugin
/// code runs on either thread.
struct JSONRows: @unchecked Sendable {
    // Unchecked: every stored property is read-only here, and the adapter is not changed while rows are
    // written (the contract above).
    /// Rows a block holds: about 50 KB of output, under JSONOutput.chunkSize.
    static let blockRows = 512

    let adapter: Adapter
    /// Per row: its tappable items (-1: its type has no tap selector); empty when no type has one.
    let tappable: [Int32]
    let paged: [Int: (count: Int32, shown: Int32)]
    let floorIDs: [[UInt8]]
    let typeNames: [[UInt8]]
    let collectionFloor: [Bool]
    /// Only rows of a type with a pages selector can be in `paged`: the others skip the lookup.
    let pagedType: [Bool]

    init(_ adapter: Adapter, tappable: [Int32], paged: [Int: (count: Int32, shown: Int32)]) {
        (self.adapter, self.tappable, self.paged) = (adapter, tappable, paged)
        func quoted(_ s: String) -> [UInt8] {
            var w = JSONWriter(capacity: s.utf8.count + 2)
            w.string(s)
            return w.bytes
        }
        floorIDs = adapter.sections.map { quoted($0.floorID) }
        // A row type name two plugins share says whose it is (ABI 1.5): `"plugin"` right after `"type"`.
        typeNames = adapter.registry.rowTypes.indices.map { id in
            var name = JSONWriter()
            name.string(adapter.registry.rowTypes[id].name)
            if let plugin = adapter.registry.sharedRowTypePlugin(Int32(id)) {
                name.raw(",\"plugin\":")
                name.string(plugin)
            }
            return name.bytes
        }
        collectionFloor = adapter.sections.map { $0.collection != nil }
        pagedType = adapter.registry.rowTypes.map { $0.pages != nil && !paged.isEmpty }
    }

    /// Every row's record, in order, after what `out` holds; each full chunk (JSONOutput.chunkSize) goes to
    /// `emit`. Stops at `emit`'s first error, once the second thread (if any) has ended.
    func write(into out: inout JSONWriter, _ emit: ([UInt8]) throws -> Void) rethrows {
        let count = adapter.rows.count
        guard count >= 4 * Self.blockRows else { return try write(0..<count, into: &out, emit) }
        let odd = OddBlocks(self, count: count)
        defer { odd.finish() }
        var block = 0
        while block * Self.blockRows < count {
            if block % 2 == 0 {
                try write(Self.rows(ofBlock: block, count: count), into: &out, emit)
            } else {
                if !out.bytes.isEmpty {
                    try emit(out.bytes)
                    out.removeAll()
                }
                for chunk in odd.next() { try emit(chunk) }
            }
            block += 1
        }
    }

    static func rows(ofBlock block: Int, count: Int) -> Range<Int> {
        block * blockRows..<min(count, (block + 1) * blockRows)
    }

    /// Rows `range`'s records after what `out` holds, each full chunk to `emit`.
    func write(_ range: Range<Int>, into out: inout JSONWriter, _ emit: ([UInt8]) throws -> Void) rethrows {
        let adapter = self.adapter
        let rows = adapter.rows
        let numberRoom = JSONRecord.maxNumberBytes
        for r in range {
            if out.bytes.count >= JSONOutput.chunkSize {
                try emit(out.bytes)
                out.removeAll()
            }
            let row = rows[r]
            let floorID = floorIDs[Int(row.section)]
            let typeName = typeNames[Int(row.type)]
            // Up to "height", then the rest after a placeholder's reason (escaped by `string`: its own room).
            out.record(upTo: 64 + 4 * numberRoom + floorID.count + typeName.count) { record in
                record.raw(r > 0 ? ",{\"section\":" : "{\"section\":")
                record.number(Int(row.section))
                record.raw(",\"row\":")
                record.number(Int(row.index))
                record.raw(",\"floor\":")
                record.raw(floorID)
                record.raw(",\"type\":")
                record.raw(typeName)
                record.raw(",\"y\":")
                record.number(row.top)
                record.raw(",\"height\":")
                record.number(row.height)
            }
            if let reason = adapter.unusableHeightReason(row: row) {
                // Its height calculator gave no height (ABI 1.5's height rule): the host drew a placeholder.
                out.raw(",\"placeholder\":")
                out.string(reason)
            }
            let collection = collectionFloor[Int(row.section)]
            let frame = collection ? adapter.frame(of: r) : nil
            let column = collection ? adapter.column(of: r) : nil
            let taps = !tappable.isEmpty && tappable[r] >= 0 ? Int(tappable[r]) : nil
            let pages = pagedType[Int(row.type)] ? paged[r] : nil
            out.record(upTo: 128 + 6 * numberRoom) { record in
                if let frame {
                    // A collection floor's rows carry their frame across the page (ABI 1.5): x and width, and
                    // the column an item was placed in (null for a full-width row of the floor).
                    record.raw(",\"x\":")
                    record.number(frame.x)
                    record.raw(",\"width\":")
                    record.number(frame.width)
                    record.raw(",\"column\":")
                    if let column { record.number(column) } else { record.raw("null") }
                }
                if row.flags & FLOOR_ROW_HEADER != 0 {
                    record.raw(
                        row.flags & FLOOR_ROW_STICKY != 0
                            ? ",\"header\":true,\"sticky\":true" : ",\"header\":true,\"sticky\":false")
                } else if row.flags & FLOOR_ROW_STICKY != 0 {
                    record.raw(",\"sticky\":true")  // a plugin's own sticky row (not a title header)
                }
                if let taps {
                    record.raw(",\"tappable\":")
                    record.number(taps)
                }
                // A carousel (docs/ABI.md, "Paged rows"): how many pages, and the one drawn.
                if let (count, shown) = pages {
                    record.raw(",\"pages\":")
                    record.number(Int(count))
                    record.raw(",\"page\":")
                    record.number(Int(shown))
                }
                record.byte(UInt8(ascii: "}"))
            }
        }
    }
}

/// The odd blocks of JSONRows, formatted on a thread of its own at most two blocks ahead of the one that
/// writes them out. Contract: `next()` is called once per odd block, in order, from one thread, and
/// `finish()` once after the last `next()` (or on an error, to stop early): it returns when the thread has
/// ended, so that nothing reads the adapter after `JSONRows.write` returns.
private final class OddBlocks: @unchecked Sendable {
    // Unchecked: the only state shared between the two threads is `state`, under its lock.
    private struct State {
        /// Formatted blocks not yet taken, each as its chunks, in order.
        var ready: [[[UInt8]]] = []
        var stopped = false
    }
    private let state = Mutex(State())
    private let formatted = HandOffSignal()
    private let room = HandOffSignal(value: 2)
    private let ended = DispatchSemaphore(value: 0)

    init(_ rows: JSONRows, count: Int) {
        HostThread.start(name: "floorhost json rows") { [self] in
            var block = 1
            while block * JSONRows.blockRows < count {
                room.wait()
                if state.withLock({ $0.stopped }) { break }
                var chunks: [[UInt8]] = []
                var out = JSONWriter(capacity: JSONOutput.chunkSize + 4096)
                rows.write(JSONRows.rows(ofBlock: block, count: count), into: &out) { chunks.append($0) }
                if !out.bytes.isEmpty { chunks.append(out.bytes) }
                state.withLock { $0.ready.append(chunks) }
                formatted.signal()
                block += 2
            }
            ended.signal()
        }
    }

    /// The next odd block's chunks, waiting until they are formatted.
    func next() -> [[UInt8]] {
        formatted.wait()
        defer { room.signal() }
        return state.withLock { $0.ready.removeFirst() }
    }

    /// Stops the thread after the block it is formatting, and waits until it has ended.
    func finish() {
        state.withLock { $0.stopped = true }
        room.signal()
        ended.wait()
    }
}
