import Glibc

/// A page's bytes handed back to the kernel as they stop being needed (PageDecoder's `handingBack`).
package enum PageBytes {
    /// Hands the whole memory pages of `bytes` between offsets `from` and `end` back (MADV_DONTNEED): they
    /// stop counting in the process's memory and read as zeros if read again. Returns the offset up to
    /// which the bytes are now handed back (`from` when no whole page lies in between), where the next
    /// call starts. The bytes must be private memory the caller owns (a Swift array's elements, which a
    /// page read fills): never a file mapping or memory another holder still reads.
    package static func handBack(_ bytes: UnsafeRawBufferPointer, from: Int, to end: Int) -> Int {
        guard let base = bytes.baseAddress, end > from else { return from }
        let page = UInt(pageSize)
        let start = (UInt(bitPattern: base) + UInt(from) + page - 1) / page * page
        let stop = (UInt(bitPattern: base) + UInt(min(end, bytes.count))) / page * page
        guard stop > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return from }
        guard madvise(pointer, Int(stop - start), MADV_DONTNEED) == 0 else { return from }
        return Int(stop - UInt(bitPattern: base))
    }

    private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))
}
