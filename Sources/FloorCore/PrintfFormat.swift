#if canImport(Glibc)
import Glibc
#endif

/// Numbers formatted as C's printf formats them ("%g", "%.1f", "%04x"), in the C locale: what Foundation's
/// `String(format:)` printed for these formats, without linking Foundation (ARCHITECTURE.md, "Two
/// executables"). Only numeric conversions: `format` must hold conversions for `arguments` and nothing that
/// reads a pointer (%s, %n).
package enum PrintfFormat {
    package static func string(_ format: String, _ arguments: CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            return withVaList(arguments) { again in
                var large = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&large, large.count, format, again)
                return String(cString: large)
            }
        }
    }
}
