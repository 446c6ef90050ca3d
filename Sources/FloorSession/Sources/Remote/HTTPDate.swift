import CGlibcExtras
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP date (RFC 9110 5.6.7) read into a point in time, in the three forms a recipient must accept:
/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37
/// GMT") and asctime's ("Sun Nov  6 08:49:37 1994"). Read with the C library's strptime in the C locale
/// (English names) and timegm, not Foundation's DateFormatter (ARCHITECTURE.md, "Two executables"). The
/// zone must be GMT (or UTC), as the RFC requires; a two-digit year is 1969-2068 (strptime's window).
package enum HTTPDate {
    package static func parse(_ text: String) -> Date? {
        for (format, zone) in [
            ("%a, %d %b %Y %H:%M:%S", true), ("%A, %d-%b-%y %H:%M:%S", true), ("%a %b %e %H:%M:%S %Y", false),
        ] {
            var fields = tm()
            let parsed: Date? = text.withCString { start in
                guard let end = strptime(start, format, &fields) else { return nil }
                let rest = String(cString: end)
                guard zone ? (rest == " GMT" || rest == " UTC") : rest.isEmpty else { return nil }
                return Date(timeIntervalSince1970: TimeInterval(timegm(&fields)))
            }
            if let parsed { return parsed }
        }
        return nil
    }
}
