import FloorCore
import FloorRuntime
import FloorSession

/// `floorhost check --shard K/N`: the share of a large CMS's pages that shard K of N checks, so that a CI
/// matrix or a Kubernetes indexed Job checks them in parallel across machines, each shard an ordinary
/// process (README, "Check in CI: shards and JUnit").
///
/// Contract: the pages are split by their *first pages*. A page that another given page's chain of next pages
/// reaches goes with that first page (read here by following `next` links through the page root, no plugin
/// involved); every first page, with its chain, falls in exactly one shard: the one its stable name hashes to
/// (FNV-1a, 64 bits, of the page's path relative to the folder argument that found it, or as given otherwise;
/// shard = hash mod N, plus 1). The same arguments give the same shares on every machine, whatever the file
/// system's order. Remote pages (URLs) are first pages named by their URL.
public struct CheckShard: Sendable, Equatable {
    /// 1-based: K of K/N.
    public let index: Int
    public let count: Int

    /// "K/N" with 1 <= K <= N; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        (index, count) = (k, n)
    }

    /// The first pages among `files` (PageSet's expansion of `arguments`) that this shard checks, in order.
    public func pages(of files: [String], given arguments: [String], root: (String) -> PageRoot) -> [String] {
        Self.firstPages(files, root: root).filter {
            Int(Self.stableHash(Self.name(of: $0, given: arguments)) % UInt64(count)) + 1 == index
        }
    }

    /// The pages no other given page's chain reaches (of two chains that reach each other's first pages, a
    /// loop, the earlier is kept, as PageBatch.covering keeps it).
    static func firstPages(_ files: [String], root: (String) -> PageRoot) -> [String] {
        let given = Set(files)
        let chains = files.map { chain(from: $0, root: root).intersection(given) }
        return files.indices.filter { p in
            !files.indices.contains { q in
                q != p && chains[q].contains(files[p]) && (!chains[p].contains(files[q]) || q < p)
            }
        }.map { files[$0] }
    }

    /// The pages `file`'s `next` links reach (itself included), read through its root; at most
    /// `maxChain` pages, and a page that cannot be read or scanned ends the chain.
    static func chain(from file: String, root: (String) -> PageRoot) -> Set<String> {
        var reached: Set<String> = [file]
        var current = file
        guard case .file = PageLocation(file) else { return reached }
        let pageRoot = root(file)
        while reached.count < maxChain, let bytes = try? pageRoot.read(current),
            let next = (try? PageScanner.scan(bytes))?.next
        {
            let location = PageLocation.location(of: next, relativeTo: current)
            guard case .file = PageLocation(location), reached.insert(location).inserted else { break }
            current = location
        }
        return reached
    }

    /// The most pages followed from one first page when sharing them out.
    static let maxChain = 10_000

    /// The page's name for hashing: relative to the folder argument it was found under, else as given.
    static func name(of file: String, given arguments: [String]) -> String {
        for argument in arguments {
            let folder = argument.hasSuffix("/") ? argument : argument + "/"
            if file.hasPrefix(folder) { return String(file.dropFirst(folder.count)) }
        }
        return file
    }

    /// FNV-1a, 64 bits, of the UTF-8 bytes: the same on every machine and in every Swift version (Swift's
    /// own Hasher is seeded per process).
    static func stableHash(_ name: String) -> UInt64 {
        var hash = ContentHash()
        hash.add(name.utf8)
        return hash.value
    }
}
