import CGlibcExtras
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Which plugin call the host is in, and on which floor, kept where a supervising process can read it
/// while this one runs and after it crashed (PageSupervisor). The host writes it before every call into
/// a plugin (a few plain stores), and once a row in its per-row loops (one store, plus the floor when it
/// changes); the supervisor watches `progress` to tell a slow page from a call that never returns. A floor
/// is named by its page's ordinal in the run (0 for the first page, then each next page in the order it
/// was decoded) and its index in that page's `floors`.
///
/// By default the record is private memory that nobody reads; `init(sharedDescriptor:)` maps, MAP_SHARED,
/// an in-memory file the parent created and handed down, so the parent reads what the child last wrote
/// even when the child died mid-call.
/// Threading: one thread at a time, like every plugin call.
public final class CrashRecord: @unchecked Sendable {
    /// The record's bytes, the same in the parent and the child (the same executable lays them out).
    package struct Fields: Equatable {
        /// PluginCall's raw value, 0 outside plugin calls.
        package var call: Int32
        /// Changes with every call and every row of a per-row loop.
        package var progress: UInt32
        /// The floor the current call is for (one 8-byte store).
        package var floor: FloorOrigin
        /// Pages decoded so far: the next page's ordinal.
        package var pagesDecoded: Int32
        /// Where `floorhost view` was scrolled when it last began a frame (points; -1 before the first),
        /// kept from one attempt to the next so that a view restarted after a plugin failure resumes there.
        package var viewOffset: Double
        /// The process's exit status + 1 once its output is written and nothing but its exit is left
        /// (`markFinished`); 0 before.
        package var finished: Int32
    }

    package static let empty = Fields(
        call: 0, progress: 0, floor: FloorOrigin(page: -1, floor: -1), pagesDecoded: 0, viewOffset: -1, finished: 0)

    package let fields: UnsafeMutablePointer<Fields>
    private let mapped: Bool

    /// A record in private memory.
    public init() {
        fields = .allocate(capacity: 1)
        fields.initialize(to: Self.empty)
        mapped = false
        descriptor = -1
    }

    public struct Failure: Error, Sendable { public let message: String }

    /// The descriptor of a record created by `createShared()`, for the parent to hand to its child; -1
    /// for a record in private memory, or once handed over.
    public private(set) var descriptor: Int32

    /// A record in memory only (memfd): nothing in the file system to leave behind, however the run ends.
    /// The parent maps it and hands `descriptor` to its child, which maps it with `init(sharedDescriptor:)`.
    public static func createShared() throws(Failure) -> CrashRecord {
        let fd = floor_memfd_cloexec("floorhost-crash-record")
        guard fd >= 0 else {
            throw Failure(message: "cannot create the crash record: \(String(cString: strerror(errno)))")
        }
        guard ftruncate(fd, off_t(MemoryLayout<Fields>.size)) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(message: "cannot size the crash record: \(reason)")
        }
        do {
            let record = try CrashRecord(sharedDescriptor: fd)
            record.reset()
            return record
        } catch {
            close(fd)
            throw error
        }
    }

    /// Maps the record open at `fd` (created by `createShared`, or handed down by the parent), shared with
    /// other processes. The record owns `fd` from here on.
    public init(sharedDescriptor fd: Int32) throws(Failure) {
        let size = MemoryLayout<Fields>.size
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) >= size else {
            throw Failure(
                message: "descriptor \(fd) is not a crash record (a hidden option meant for floorhost's own child)")
        }
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw Failure(message: "cannot map the crash record: \(String(cString: strerror(errno)))")
        }
        fields = memory.bindMemory(to: Fields.self, capacity: 1)
        mapped = true
        descriptor = fd
    }

    deinit {
        if mapped { munmap(fields, MemoryLayout<Fields>.size) } else { fields.deallocate() }
        if descriptor >= 0 { close(descriptor) }
    }

    /// In a forked child (PageSupervisor): gives up the descriptor, which this record no longer closes,
    /// for the child to map afresh with `init(sharedDescriptor:)`, as a spawned child maps the one it was
    /// handed. This record stays mapped until it goes.
    package func handOver() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    /// In the child, once its output is written and only its exit is left: notes `status` in the record open at
    /// `descriptor` (written through the descriptor, so it needs no mapping of its own). The supervisor then takes
    /// the end of the child's stderr as its end (`finishedStatus`), without waiting for the kernel to free the
    /// child's memory: 2-3 ms of a large page's render (BENCHMARKS.md, issue 23, "Ended when finished").
    package static func markFinished(descriptor: Int32, status: Int32) {
        guard let offset = MemoryLayout<Fields>.offset(of: \Fields.finished) else { return }
        var value = status &+ 1
        _ = pwrite(descriptor, &value, MemoryLayout<Int32>.size, off_t(offset))
    }

    /// The status the child noted with `markFinished`; nil before it did.
    package var finishedStatus: Int32? {
        let finished = fields.pointee.finished
        return finished > 0 ? finished - 1 : nil
    }

    /// What the record says the process was doing: nil outside plugin calls.
    public var lastCall: (call: PluginCall, floor: FloorOrigin)? {
        let f = fields.pointee
        guard let call = PluginCall(rawValue: f.call), f.floor.page >= 0, f.floor.floor >= 0 else { return nil }
        return (call, f.floor)
    }

    /// Empties the record for another attempt (the parent's side), all but the view's offset.
    package func reset() {
        let offset = fields.pointee.viewOffset
        fields.pointee = Self.empty
        fields.pointee.viewOffset = offset
    }

    /// Where the view was when the last attempt began its last frame; nil before any frame.
    package var viewOffset: Double? {
        get { fields.pointee.viewOffset >= 0 ? fields.pointee.viewOffset : nil }
        set { fields.pointee.viewOffset = newValue ?? -1 }
    }

    /// Everything the record says, for the supervisor to compare from one look to the next.
    package var snapshot: Fields { fields.pointee }

    /// The same, for supervisors outside this module (serve's worker watch): equal from one look to the
    /// next exactly when the process made no progress.
    public var snapshotForWatch: [Int64] {
        let f = fields.pointee
        return [Int64(f.call), Int64(f.progress), Int64(f.floor.page), Int64(f.floor.floor), Int64(f.pagesDecoded)]
    }

    /// The ordinal of the page about to be decoded.
    package func nextPageOrdinal() -> Int32 {
        defer { fields.pointee.pagesDecoded += 1 }
        return fields.pointee.pagesDecoded
    }

    /// Runs `body`, which calls into a plugin for `floor`, noted as `call`: if the process dies or stops
    /// answering inside it, the supervisor names that plugin, selector and floor. The one way the host
    /// calls a plugin (ARCHITECTURE.md, "Plugin calls"); per-row loops inside `body` move the record on
    /// with `on(_:)` and `step(_:)`.
    @inline(__always) package func withPluginCall<Result, Failure: Error>(
        _ call: PluginCall, on floor: FloorOrigin, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        fields.pointee.floor = floor
        fields.pointee.call = call.rawValue
        fields.pointee.progress &+= 1
        defer { fields.pointee.call = 0 }
        return try body()
    }

    /// Per-row loops, which enter their call once: the floor, when the loop reaches another one.
    @inline(__always) package func on(_ floor: FloorOrigin) { fields.pointee.floor = floor }

    /// Per-row loops: row `row` is next (any number that changes from row to row).
    @inline(__always) package func step(_ row: Int) { fields.pointee.progress = UInt32(truncatingIfNeeded: row) }
}
