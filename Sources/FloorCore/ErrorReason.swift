import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Why a file operation failed, as a person reads it: the system's own words for the errno under a
/// FoundationEssentials error ("Permission denied", "No such file or directory"), else the error as
/// written. Foundation's `localizedDescription`, which this replaces (ARCHITECTURE.md, "Two executables"),
/// said only "The operation could not be completed." and a sentence per error code.
package enum ErrorReason {
    package static func of(_ error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
        if let posix { return String(cString: strerror(posix.code.rawValue)) }
        return "\(error)"
    }
}
