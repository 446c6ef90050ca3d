import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The pages `floorhost check` was given, as files: a file stands for itself; a folder for every `*.json`
/// file under it (any depth, hidden entries and plugins' `*.samples.json` left out); an argument with `*`,
/// `?` or `[` is a glob (glob(3), matched by the shell's rules, so `'pages/*.json'` in quotes works
/// where the shell would not expand it). Order: arguments in order, each folder's and glob's files sorted;
/// a file named twice counts once. An argument that names nothing is an error saying which.
public enum PageSet {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let argument: String
        public let reason: String
        public var description: String { "\(argument): \(reason)" }
    }

    public static func expand(_ arguments: [String]) throws(Failure) -> [String] {
        var files: [String] = []
        var seen = Set<String>()
        func add(_ file: String) {
            if seen.insert(file).inserted { files.append(file) }
        }
        for argument in arguments {
            if case .remote = PageLocation(argument) {
                add(argument)  // a URL is a page as it is (its `?` is a query, not a pattern)
                continue
            }
            var info = stat()
            if stat(argument, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                let found = pages(under: argument)
                if found.isEmpty { throw Failure(argument: argument, reason: "a folder with no page (*.json) in it") }
                found.forEach(add)
            } else if argument.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }),
                !FileManager.default.fileExists(atPath: argument)
            {
                let matches = glob(argument)
                if matches.isEmpty { throw Failure(argument: argument, reason: "no file matches this pattern") }
                for match in matches {
                    var info = stat()
                    if stat(match, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                        pages(under: match).forEach(add)
                    } else {
                        add(match)
                    }
                }
            } else {
                add(argument)  // a missing file is the page check's to report, as for one page
            }
        }
        return files
    }

    /// Every page file under `folder`, at any depth, sorted: regular files (or links to one) named
    /// `*.json` but not `*.samples.json`. Names starting with "." are skipped, a folder's whole contents
    /// with it; links to folders are not followed (a link cycle cannot loop).
    package static func pages(under folder: String) -> [String] {
        var found: [String] = []
        func walk(_ directory: String) {
            guard let stream = opendir(directory) else { return }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name.hasPrefix(".") { continue }
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                var link = stat()
                if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFDIR {
                    walk(path)
                    continue
                }
                guard name.hasSuffix(".json"), !name.hasSuffix(".samples.json") else { continue }
                var info = stat()
                if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { found.append(path) }
            }
        }
        walk(folder)
        return found.sorted()
    }

    package static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}
