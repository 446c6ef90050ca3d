import CHarfBuzz
import Glibc

/// A font file mapped read-only and private, as a HarfBuzz blob that unmaps it when HarfBuzz lets it go.
/// Mapped here rather than by `hb_blob_create_from_file`, which falls back to reading the file into memory
/// of its own where it cannot map it: FontFace hands a face's pages back to the kernel (`MADV_DONTNEED`),
/// which is harmless only on a file mapping (on memory of its own, it would zero the font).
enum FontFile {
    /// Which file was mapped, as it was then: what facts kept about it are checked against (FontFactsCache).
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: UInt64
        /// The modification time.
        var seconds: UInt64
        var nanoseconds: UInt64
    }

    /// The blob, the mapping's bytes and the file's identity; nil for a file that cannot be opened or mapped, or
    /// is empty.
    static func map(_ path: String) -> (blob: OpaquePointer, bytes: UnsafeRawBufferPointer, identity: Identity)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            info.st_size < off_t(Int32.max)
        else { return nil }
        let length = Int(info.st_size)
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        // What the destroy callback unmaps: it gets one pointer of user data.
        let mapping = UnsafeMutablePointer<UnsafeRawBufferPointer>.allocate(capacity: 1)
        mapping.initialize(to: UnsafeRawBufferPointer(start: base, count: length))
        // On failure HarfBuzz calls the destroy callback itself (which unmaps).
        guard
            let blob = hb_blob_create_or_fail(
                base.assumingMemoryBound(to: CChar.self), UInt32(length), HB_MEMORY_MODE_READONLY, mapping,
                { data in
                    guard let mapping = data?.assumingMemoryBound(to: UnsafeRawBufferPointer.self) else { return }
                    munmap(UnsafeMutableRawPointer(mutating: mapping.pointee.baseAddress), mapping.pointee.count)
                    mapping.deallocate()
                })
        else { return nil }
        let identity = Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: UInt64(info.st_size),
            seconds: UInt64(bitPattern: Int64(info.st_mtim.tv_sec)),
            nanoseconds: UInt64(bitPattern: Int64(info.st_mtim.tv_nsec)))
        return (blob, mapping.pointee, identity)
    }
}
