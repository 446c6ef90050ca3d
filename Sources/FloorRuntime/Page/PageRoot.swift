import CGlibcExtras
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The one folder pages are read from (ARCHITECTURE.md, "Trust model"): the first page, its next pages, and later
/// whatever a preview server serves. Every page read goes through `read`, which refuses a file that
/// resolves (after symlinks) outside the folder, is not a regular file (a FIFO, a device, a directory,
/// /proc), or is larger than `maxPageBytes`. A refusal never carries a byte of the refused file.
///
/// The check and the read are one: the resolved path is opened O_NOFOLLOW | O_NONBLOCK (a FIFO never
/// blocks the open), the open descriptor is what is checked (fstat; its /proc/self/fd link must still be
/// inside the root, so a folder swapped for a symlink after resolving is caught), and at most
/// `maxPageBytes + 1` bytes are read from it. Threading: a value; `read` may run on any thread.
public struct PageRoot: Sendable, Equatable {
    /// Enough for the 8 MB benchmark page four times over; a CMS page is kilobytes.
    public static let defaultMaxPageBytes = 32 << 20
    /// A feed a person scrolls is tens of pages; a thousand is well past any, and ends an endless chain
    /// (a CMS whose `next` is always a new URL) in bounded time and memory.
    public static let defaultMaxPages = 1_000
    /// `--max-pages`' help, the same for every command that takes it.
    public static let maxPagesHelp =
        "Load at most N pages of a chain, the first included (default 1,000); a longer chain stops there with a diagnostic, as a loop back into the chain does."

    /// The root folder, absolute, symlinks resolved.
    public let folder: String
    public let maxPageBytes: Int
    /// The most pages one chain read from here loads, the first page included (`--max-pages`): LoadMore
    /// and `check` stop there, with a diagnostic. At least 1.
    public var maxPages = defaultMaxPages {
        didSet { maxPages = max(1, maxPages) }
    }

    /// A named root: `--page-root DIR`, or `serve`'s ROOT (`namedBy` is how the user gave it, for the
    /// message). Throws a message naming the folder when it is not one.
    public init(folder: String, maxPageBytes: Int = defaultMaxPageBytes, namedBy: String = "--page-root")
        throws(PageError)
    {
        guard let resolved = Self.realPath(folder) else {
            throw PageError(file: folder, line: nil, column: nil, reason: "no such page root folder (\(namedBy))")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw PageError(file: folder, line: nil, column: nil, reason: "the page root (\(namedBy)) is not a folder")
        }
        self.folder = resolved
        self.maxPageBytes = max(1, maxPageBytes)
    }

    /// The default root: the folder holding `page` (as named, its folder's symlinks resolved).
    public init(around page: String, maxPageBytes: Int = defaultMaxPageBytes, maxPages: Int = defaultMaxPages) {
        let parent = PathText.deletingLastComponent(of: WorkingDirectory.absolute(page))
        folder = Self.realPath(parent) ?? parent
        self.maxPageBytes = max(1, maxPageBytes)
        self.maxPages = max(1, maxPages)
    }

    /// Why a page was not read. `description` is the reason alone; the caller puts the file, or the page
    /// and field that pointed at it, in front.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case outside(root: String)
        case notRegular(kind: String)
        case tooLarge(limit: Int)
        case changed
        case unreadable(String)

        public var description: String {
            switch self {
            case .missing: "no such page file"
            case .outside(let root):
                "resolves outside the page root \(root); pages are read only from there (--page-root DIR names another)"
            case .notRegular(let kind): "is \(kind), not a regular file; pages are read only from regular files"
            case .tooLarge(let limit): "is larger than \(limit) bytes (--max-page-bytes)"
            case .changed: "changed while it was being opened (a symlink was put in its way); not read"
            case .unreadable(let why): "cannot read the page file: \(why)"
            }
        }

        /// A refusal by the trust rules (as opposed to a file that is merely missing or unreadable).
        public var isTrustRefusal: Bool {
            switch self {
            case .missing, .unreadable: false
            case .outside, .notRegular, .tooLarge, .changed: true
            }
        }
    }

    /// The bytes of the page at `file` (relative to the working directory, or absolute), or why not.
    public func read(_ file: String) throws(Refusal) -> [UInt8] {
        guard let resolved = Self.realPath(WorkingDirectory.absolute(file)) else {
            let error = errno
            throw error == ENOENT || error == ENOTDIR ? .missing : .unreadable(String(cString: strerror(error)))
        }
        guard contains(resolved) else { throw .outside(root: folder) }
        return try read(resolved: resolved)
    }

    /// Reads `resolved`, a path realpath found inside the root a moment ago; anything on it may have been
    /// swapped for a symlink since, which the open and the descriptor's own path catch.
    package func read(resolved: String) throws(Refusal) -> [UInt8] {
        let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else {
            let error = errno
            if error == ELOOP { throw .changed }
            if error == ENOENT { throw .missing }
            throw .unreadable(String(cString: strerror(error)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular(kind: Self.kind(of: info.st_mode)) }
        // /proc and /sys files claim to be regular files (of size 0) but are the kernel's, not a page.
        if Self.kernelFileSystems.contains(floor_file_system_type(fd)) {
            throw .notRegular(kind: "a kernel file (/proc, /sys)")
        }
        // The descriptor's own path: a folder on the way swapped for a symlink after realpath shows here.
        guard let opened = Self.realPath("/proc/self/fd/\(fd)"), contains(opened) else { throw .changed }
        guard Int(info.st_size) <= maxPageBytes else { throw .tooLarge(limit: maxPageBytes) }
        // Read at most one byte past the limit: a file that grew after fstat is refused, not read whole.
        // Backed by huge pages where the system allows it (HugePages), advised before the read touches it: 4
        // faults for an 8 MB page instead of 2,000 (2.7 ms of the json render's CPU, BENCHMARKS.md, issue 23,
        // "The page read into huge pages"). Read straight into the array's uninitialized room: the bytes read
        // are the array, nothing is zeroed first (the kernel zeroes each page it maps, and read writes it).
        var failure: Int32 = 0
        let room = min(Int(info.st_size), maxPageBytes) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: room) {
            buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            while initialized < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + initialized, buffer.count - initialized)
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                initialized += n
            }
        }
        if failure != 0 { throw .unreadable(String(cString: strerror(failure))) }
        // The file grew after fstat: the rest is read as it comes, up to one byte past the limit.
        var count = bytes.count
        guard count == room else { return bytes }
        bytes += [UInt8](repeating: 0, count: min(count, maxPageBytes + 1 - count))
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n < 0 { throw .unreadable(String(cString: strerror(errno))) }
            if n == 0 { break }
            count += n
            if count == bytes.count && count <= maxPageBytes {
                bytes += [UInt8](repeating: 0, count: min(bytes.count, maxPageBytes + 1 - bytes.count))
            }
        }
        guard count <= maxPageBytes else { throw .tooLarge(limit: maxPageBytes) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Whether the resolved path `path` is inside the root.
    package func contains(_ path: String) -> Bool {
        folder == "/" ? path.hasPrefix("/") : path.hasPrefix(folder + "/")
    }

    /// realpath(3): absolute, no symlinks, no "." or ".."; nil (errno set) when a part does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// proc, sysfs, debugfs, tracefs, securityfs, cgroup2 (statfs f_type magic numbers, linux/magic.h).
    private static let kernelFileSystems: Set<Int> = [
        0x9fa0, 0x6265_6572, 0x6462_6720, 0x7472_6163, 0x7363_6673, 0x6367_7270,
    ]

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}
