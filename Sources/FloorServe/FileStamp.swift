import Foundation

/// What tells that a file changed: its inode, size and modification time (ns). An editor that saves by
/// renaming a new file over the old one changes the inode; one that writes in place changes the time.
package struct FileStamp: Equatable, Sendable {
    package let inode: UInt64
    package let size: Int64
    package let modified: Int64

    /// The stamp of `path` now, following symlinks; nil when it cannot be stat'ed (deleted, mid-rename).
    package init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
