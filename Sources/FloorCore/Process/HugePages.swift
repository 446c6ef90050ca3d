#if canImport(Glibc)
import Glibc
#endif

/// A large buffer a command fills from end to end (a page read) backed by transparent huge pages where the system
/// allows it (THP in "madvise" mode, the Debian default): one fault per 2 MiB instead of 512. On the development
/// machine (a VM) a 4 KiB page's first touch costs about 1.4 µs, so 8 MB cost 3 ms in small pages and 0.2 ms in
/// huge ones (BENCHMARKS.md, issue 23). But that VM hands memory left free for a few seconds back to its host (free
/// page reporting), and a huge page taken from it is then faulted in by the host too: 24 MB's first touch took
/// 35-60 ms in huge pages a few seconds after the last run, 10-20 ms in small ones (BENCHMARKS.md, issue 23,
/// "Output held once a line"). So only the page read, which the json render needs whole, is advised; the text
/// preview holds less instead (TextOutput). Only the whole 2 MiB extents inside the buffer are advised; an extent
/// is resident once touched, so the buffer holds at most one extent more than it wrote. Memory handed back piece by
/// piece (MADV_DONTNEED, the page read's floors as they are decoded) splits a huge page and frees the pieces: it
/// costs the split, and the rest of the extent stays resident until it is handed back too (the render's peak, at
/// its end, did not move: BENCHMARKS.md, issue 23, "The page read into huge pages").
public enum HugePages {
    /// The size of a huge page on x86-64 and arm64 with 4 KiB pages.
    public static let extent = 2 << 20

    /// Advises the whole 2 MiB extents inside `buffer` (MADV_HUGEPAGE) before anything touches them, and
    /// returns the addresses advised; nil, and nothing advised, for a buffer under two extents (it holds at
    /// most a partial one). Only for memory this process owns privately (an array's capacity, never a file
    /// mapping); a refusal by the kernel is not an error (the buffer is then backed by small pages, as
    /// without the advice). The advice stays with the memory: in a command's process, whose malloc hands
    /// every block over 512 KiB back to the system when it is freed (`ProcessMemory.tuneMalloc`), it goes with
    /// the buffer; in a process whose malloc keeps large blocks (a test runner), a freed buffer's extents stay
    /// advised for whatever the heap puts there next.
    @discardableResult
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer) -> Range<UInt>? {
        guard buffer.count >= 2 * extent, let base = buffer.baseAddress else { return nil }
        let mask = UInt(extent - 1)
        let start = (UInt(bitPattern: base) + mask) & ~mask
        let stop = (UInt(bitPattern: base) + UInt(buffer.count)) & ~mask
        guard stop > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        _ = madvise(pointer, Int(stop - start), MADV_HUGEPAGE)
        return start..<stop
    }
}
