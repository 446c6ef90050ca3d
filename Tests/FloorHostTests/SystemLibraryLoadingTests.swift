import CSystemLibraries
import Foundation
import Testing

/// libcurl is loaded when a page over http(s) is first asked for, and libcrypto when a digest or a CA file
/// is, not linked (CSystemLibraries): a floorhost that renders a file maps none of their libraries, and a
/// libcurl that cannot be loaded is a reason, not a crash. RemotePageTests, RemoteHTTPSTests (--ca-file) and
/// PluginTrustTests (SHA-256) use them.
@Suite struct SystemLibraryLoadingTests {
    /// The NUL-terminated text a loader wrote into `buffer`.
    func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func floorhostLinksNeitherLibcurlNorLibcrypto() throws {
        let dynamic = try run("/usr/bin/readelf", ["-d", Repo.floorhostBinary])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        #expect(dynamic.stdout.contains("(NEEDED)") && dynamic.stdout.contains("libc.so"))
        #expect(!dynamic.stdout.contains("libcurl") && !dynamic.stdout.contains("libcrypto"), "\(dynamic.stdout)")
    }

    /// ICU's regular expressions (libicui18n) are opened by the first schema pattern no hand matcher takes
    /// (CPattern); SchemaValidatorTests matches such patterns.
    @Test func floorhostLinksNoICURegularExpressions() throws {
        let dynamic = try run("/usr/bin/readelf", ["-d", Repo.floorhostBinary])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        #expect(dynamic.stdout.contains("libicuuc") && !dynamic.stdout.contains("libicui18n"), "\(dynamic.stdout)")
    }

    @Test func theSystemsLibcurlHasEveryFunctionTheClientCalls() {
        var reason = [CChar](repeating: 0, count: 512)
        #expect(floor_curl_check("libcurl.so.4", &reason, reason.count) == 0, "\(text(reason))")
    }

    @Test func aLibraryThatCannotBeLoadedGivesTheLoadersReason() {
        var reason = [CChar](repeating: 0, count: 512)
        #expect(floor_curl_check("libcurl-absent.so.4", &reason, reason.count) == -1)
        #expect(text(reason).contains("libcurl-absent.so.4"), "\(text(reason))")
        // A library without curl's functions is refused by name of the first one missing.
        #expect(floor_curl_check("libz.so.1", &reason, reason.count) == -1)
        #expect(text(reason) == "libz.so.1 has no curl_global_init")
    }
}
