import FloorRuntime
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The pages under a page root (what `floorhost serve` lists at `/`): every `*.json` file in the folder and
/// its sub-folders that reads through the root and scans as a page. Each entry says whether another page
/// names it as its `next` (a next page is usually opened through its first page). Files that do not read
/// or scan as a page are left out; nothing of them is shown.
///
/// Bounds: at most `maxDepth` folders deep and `maxFiles` files looked at, so a huge or looping tree costs
/// a bounded walk (symlinked folders are not followed; symlinked files go through PageRoot like any page).
public enum PageIndex {
    public struct Entry: Sendable, Equatable {
        /// The path relative to the root, with `/` separators: what `/page/<path>` takes.
        public let path: String
        public let title: String?
        /// The relative path of the page this one is the `next` page of, when one is.
        public let nextOf: String?
        public let floors: Int
    }

    /// The title of the page `file`, read as `bytes` (scanned, no plugin involved), or why it is not a page:
    /// the same message, with file:line:column, that decoding it would give.
    public static func title(of file: String, bytes: [UInt8]) -> Result<String?, PageError> {
        do {
            return .success(try PageScanner.scan(bytes).title)
        } catch {
            return .failure(PageError(file: file, line: error.line, column: error.column, reason: error.message))
        }
    }

    public static let maxDepth = 8
    public static let maxFiles = 10_000

    /// The page entries under `root`: first pages by path, each followed by its next pages.
    public static func list(_ root: PageRoot) -> [Entry] {
        var found: [(path: String, spec: PageSpec)] = []
        var looked = 0
        func walk(_ folder: String, relative: String, depth: Int) {
            guard depth <= maxDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                return
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                guard looked < maxFiles else { return }
                looked += 1
                let file = folder + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(file, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    walk(file, relative: path, depth: depth + 1)
                } else if name.hasSuffix(".json"), let bytes = try? root.read(file),
                    let spec = try? PageScanner.scan(bytes)
                {
                    found.append((path, spec))
                }
            }
        }
        walk(root.folder, relative: "", depth: 0)
        var nextOf: [String: String] = [:]
        for (path, spec) in found {
            guard let next = spec.next else { continue }
            let target = PageLocation.location(of: next, relativeTo: path)
            if nextOf[target] == nil { nextOf[target] = path }
        }
        // Each first page, then its next pages in the order they load; pages in a loop of next pages
        // (no first page leads to them) last, by path.
        let byPath = Dictionary(found.map { ($0.path, $0.spec) }, uniquingKeysWith: { first, _ in first })
        var listed: Set<String> = []
        var order: [String] = []
        for (path, _) in found where nextOf[path] == nil || nextOf[path] == path {
            var current: String? = path
            while let page = current, let spec = byPath[page], listed.insert(page).inserted {
                order.append(page)
                current = spec.next.map { PageLocation.location(of: $0, relativeTo: page) }
            }
        }
        order += found.map(\.path).filter { !listed.contains($0) }
        return order.map {
            Entry(path: $0, title: byPath[$0]?.title, nextOf: nextOf[$0], floors: byPath[$0]?.floors.count ?? 0)
        }
    }
}
