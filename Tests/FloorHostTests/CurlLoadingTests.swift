import CCurl
import Foundation
import Testing

/// libcurl is loaded when a page over http(s) is first asked for, not linked (CCurl): a floorhost that renders
/// a file maps none of its thirty libraries, and a libcurl that cannot be loaded is a reason, not a crash.
/// RemotePageTests and RemoteHTTPSTests load pages through it.
@Suite struct CurlLoadingTests {
    @Test func floorhostDoesNotLinkLibcurl() throws {
        let dynamic = try run("/usr/bin/readelf", ["-d", Repo.floorhostBinary])
        #expect(dynamic.status == 0, "\(dynamic.stderr)")
        #expect(dynamic.stdout.contains("(NEEDED)") && dynamic.stdout.contains("libc.so"))
        #expect(!dynamic.stdout.contains("libcurl"), "\(dynamic.stdout)")
    }

    @Test func theSystemsLibcurlHasEveryFunctionTheClientCalls() {
        var reason = [CChar](repeating: 0, count: 512)
        #expect(floor_curl_check("libcurl.so.4", &reason, reason.count) == 0, "\(String(cString: reason))")
    }

    @Test func aLibraryThatCannotBeLoadedGivesTheLoadersReason() {
        var reason = [CChar](repeating: 0, count: 512)
        #expect(floor_curl_check("libcurl-absent.so.4", &reason, reason.count) == -1)
        #expect(String(cString: reason).contains("libcurl-absent.so.4"), "\(String(cString: reason))")
        // A library without curl's functions is refused by name of the first one missing.
        #expect(floor_curl_check("libz.so.1", &reason, reason.count) == -1)
        #expect(String(cString: reason) == "libz.so.1 has no curl_global_init")
    }
}
