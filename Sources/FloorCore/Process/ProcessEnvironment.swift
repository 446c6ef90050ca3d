#if canImport(Glibc)
import Glibc
#endif

/// This process's environment variables, read one at a time with getenv. FoundationEssentials'
/// `ProcessInfo.processInfo.environment` builds a dictionary of every variable on each call, about 9,000
/// instructions a variable, and a render asked it four times before its first byte (BENCHMARKS.md, "A
/// process's start, cheaper"). Nothing in floorhost sets a variable, so reads need no lock.
package enum ProcessEnvironment {
    /// The value of the variable `name`, nil when it is not set.
    package static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Those of the variables `names` that are set, with their values.
    package static func values(of names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names { found[name] = value(name) }
        return found
    }
}
