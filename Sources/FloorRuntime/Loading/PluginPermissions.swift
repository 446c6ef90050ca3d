import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Who can change a plugin before it runs with the user's rights (ARCHITECTURE.md, "Trust model"; PostgreSQL's
/// rule for its own directories): a library file, and every folder on its path inside the plugin folder
/// (the plugin folder included), must be writable by its owner only, and owned by the user running
/// floorhost or by root. Symlinks are followed: what counts is the file that would be opened.
public enum PluginPermissions {
    /// Why `library` (found under `folder`) is not safe to load, as the end of a sentence with the fix,
    /// or nil when it is.
    public static func problem(library: String, folder: String) -> String? {
        for path in pathsToCheck(library: library, folder: folder) {
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let what = path == library ? path : "its folder \(path)"
            if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                let mode = String(info.st_mode & 0o7777, radix: 8)
                return
                    "\(what) is writable by group or others (mode 0\(mode)); a plugin runs with your rights, so only you or root may be able to change it: chmod go-w \(path)"
            }
            let me = geteuid()
            if info.st_uid != me && info.st_uid != 0 {
                return
                    "\(what) is owned by \(userName(info.st_uid)), not by you (\(userName(me))) or root; a plugin runs with your rights: chown \(me) \(path), or remove it"
            }
        }
        return nil
    }

    /// `folder` itself and each folder below it down to `library`, then the library. A library given as
    /// the plugin "folder" itself is checked alone.
    package static func pathsToCheck(library: String, folder: String) -> [String] {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        guard library != base, library.hasPrefix(base + "/") else { return [library] }
        var paths = [base]
        var current = base
        for part in library.dropFirst(base.count + 1).split(separator: "/").dropLast() {
            current += "/" + part
            paths.append(current)
        }
        return paths + [library]
    }

    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }
}
