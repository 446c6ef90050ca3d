import CGlibcExtras

#if canImport(Glibc)
import Glibc
#endif

/// What this process holds in memory: the allocated heap (glibc's mallinfo2: in-use chunks of every arena
/// plus mmap'ed blocks; what a leak grows) and the resident set (/proc/self/statm; what the system sees).
/// The serve worker reports both to its server (the soak test reads them; README, "serve's limits").
public struct ProcessMemory: Sendable, Equatable {
    public let heap: Int
    public let resident: Int

    public init(heap: Int, resident: Int) {
        self.heap = heap
        self.resident = resident
    }

    /// This process, now.
    public static var current: ProcessMemory {
        ProcessMemory(heap: Int(floor_heap_in_use()), resident: residentBytes())
    }

    /// Sets malloc up for a command's process (called once, at its start):
    /// - one arena for all threads (M_ARENA_MAX): a render's second thread (the page scan, ScanAhead)
    ///   allocates as it goes, and an arena of its own kept its pages apart from the main thread's (+0.3 MB
    ///   at the peak of the 8 MB page's json render);
    /// - a fixed mmap threshold of 512 KiB (M_MMAP_THRESHOLD): by default glibc raises the threshold to the
    ///   size of each large block freed, and blocks up to that size then come from the heap, where they stay
    ///   once freed; fixed, a large block goes back to the system when it is freed (-0.7 MiB at that peak,
    ///   about 2 ms more of a 105 ms render).
    /// BENCHMARKS.md, issue 23.
    public static func tuneMalloc() {
        _ = mallopt(M_ARENA_MAX, 1)
        _ = mallopt(M_MMAP_THRESHOLD, 512 * 1024)
    }

    private static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        // "size resident shared ...", in pages.
        let fields = buffer[0..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
