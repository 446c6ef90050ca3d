import Foundation

/// What tells that a file changed: its inode, size, modification time (ns) and mode. An editor that saves
/// by renaming a new file over the old one changes the inode; one that writes in place changes the time; a
/// chmod changes only the mode (a plugin made writable by others must be noticed: plugin trust).
package struct FileStamp: Equatable, Sendable {
    package let inode: UInt64
    package let size: Int64
    package let modified: Int64
    package let mode: UInt32

    /// The stamp of `path` now, following symlinks; nil when it cannot be stat'ed (deleted, mid-rename).
    package init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        mode = UInt32(info.st_mode)
    }

    package init(inode: UInt64, size: Int64, modified: Int64, mode: UInt32) {
        (self.inode, self.size, self.modified, self.mode) = (inode, size, modified, mode)
    }

    /// Only the mode (and inode) of `path`: for a folder, whose time changes with every file added to it.
    package init?(modeOf path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = 0
        modified = 0
        mode = UInt32(info.st_mode)
    }
}
