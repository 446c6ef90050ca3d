#if canImport(Glibc)
import Glibc
#endif

/// A large buffer a command fills from end to end (the text preview's output, a page read) backed by
/// transparent huge pages where the system allows it (THP in "madvise" mode, the Debian default): one
/// fault per 2 MiB instead of 512. On the development machine (a VM) a 4 KiB page's first touch costs about
/// 1.4 µs, so 8 MB cost 3 ms in small pages and 0.2 ms in huge ones (BENCHMARKS.md, issue 23). Only the
/// whole 2 MiB extents inside the buffer are advised; an extent is resident once touched, so the buffer
/// holds at most one extent more than it wrote. Memory handed back piece by piece (MADV_DONTNEED, the page
/// read's floors as they are decoded) splits a huge page and frees the pieces: it costs the split, and the
/// rest of the extent stays resident until it is handed back too (the render's peak, at its end, did not
/// move: BENCHMARKS.md, issue 23, "The page read into huge pages").
public enum HugePages {
    /// The size of a huge page on x86-64 and arm64 with 4 KiB pages.
    public static let extent = 2 << 20

    /// Advises the whole 2 MiB extents inside `buffer` (MADV_HUGEPAGE) before anything touches them.
    /// Buffers under two extents are left alone (they hold at most a partial one). Only for memory this
    /// process owns privately (an array's capacity, never a file mapping); a refusal by the kernel is not
    /// an error (the buffer is then backed by small pages, as without the advice).
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count >= 2 * extent, let base = buffer.baseAddress else { return }
        let mask = UInt(extent - 1)
        let start = (UInt(bitPattern: base) + mask) & ~mask
        let stop = (UInt(bitPattern: base) + UInt(buffer.count)) & ~mask
        guard stop > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, Int(stop - start), MADV_HUGEPAGE)
    }

    /// Reserves `count` more bytes at the end of `array` and advises them (`advise`): a buffer about to be
    /// appended to, up to that much, without a copy.
    public static func reserve(_ count: Int, at array: inout [UInt8]) {
        array.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { buffer, _ in advise(UnsafeMutableRawBufferPointer(buffer)) }
        }
    }
}
