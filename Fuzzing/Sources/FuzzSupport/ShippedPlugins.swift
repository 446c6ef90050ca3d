import FloorRuntime
import FloorSession
import Glibc

/// The shipped floor plugins, opened in this process the way `floorhost --no-plugin-isolation` opens them
/// (dlopen of each library in the folder), from `$FLOORKIT_FUZZ_PLUGINS`. Scripts/fuzz builds them with the
/// same sanitizer and coverage instrumentation as the harness and puts them there, so libFuzzer sees inside
/// them too.
///
/// Lifetime: loaded on first use and kept for the process (a plugin is never unloaded). Harnesses touch
/// `host` from `LLVMFuzzerInitialize`, before fuzzing starts, so that every plugin's coverage counters are
/// registered with libFuzzer up front. Threading: libFuzzer runs inputs on one thread.
public enum ShippedPlugins {
    public static let host: FloorHost = {
        guard let folder = environment("FLOORKIT_FUZZ_PLUGINS") else {
            fail("set FLOORKIT_FUZZ_PLUGINS to a folder of the shipped plugin libraries (Scripts/fuzz does)")
        }
        let host: FloorHost
        do throws(PluginDiscovery.Failure) {
            host = try FloorHost(pluginFolder: folder)
        } catch {
            fail("\(folder): \(error.message)")
        }
        let missing = ["Focus", "IconGrid", "ProductFeed", "Title"].filter {
            !host.registry.floorTypeNames.contains($0)
        }
        guard missing.isEmpty, host.loadDiagnostics.isEmpty else {
            fail(
                "\(folder): the shipped plugins did not all load (missing floor types: \(missing)); "
                    + host.loadDiagnostics.map(\.message).joined(separator: "; "))
        }
        return host
    }()
}

/// An environment variable's value, nil when unset or empty.
public func environment(_ name: String) -> String? {
    guard let value = getenv(name), value.pointee != 0 else { return nil }
    return String(cString: value)
}

/// Ends a harness that cannot start, with the reason on stderr (not a fuzzing finding: exit, not trap).
public func fail(_ message: String) -> Never {
    printError(message)
    exit(1)
}

/// Writes one line, "fuzz: " and `message`, to stderr, beside libFuzzer's own lines.
public func printError(_ message: String) {
    var line = Array("fuzz: \(message)\n".utf8)
    _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
