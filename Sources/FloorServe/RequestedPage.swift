import FloorSession
import Foundation

/// The page file a request names (`/page/<path>`, `/layout/<path>`, `?page=<path>`): a path relative to
/// the served root, percent-decoded once. Anything that is not a plain relative path (empty, absolute,
/// `.` or `..` segments, NUL, a backslash) is refused here; the rest is read through PageRoot, which
/// refuses whatever resolves outside the root after symlinks, is not a regular file, or is too large.
/// Both refusals look the same to the client (404, quoting nothing).
public enum RequestedPage {
    /// The file to read for `encoded` (the request's path after its route prefix), as `root` names it
    /// (the folder as `serve` was given it, so messages name files the way the user does), or nil.
    public static func file(_ encoded: Substring, under rootArgument: String) -> String? {
        guard let relative = relativePath(encoded) else { return nil }
        return join(rootArgument, relative)
    }

    /// The decoded relative path, or nil when it is not a plain relative path.
    public static func relativePath(_ encoded: Substring) -> String? {
        guard let decoded = String(encoded).removingPercentEncoding, !decoded.isEmpty, decoded.utf8.count <= 4096 else {
            return nil
        }
        guard !decoded.hasPrefix("/"), !decoded.contains("\0"), !decoded.contains("\\") else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return decoded
    }

    package static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }
}
