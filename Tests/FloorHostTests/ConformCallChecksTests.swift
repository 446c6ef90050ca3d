import Foundation
import Testing
@testable import FloorHost

/// What `actions`, `extend` and `validate` say when they fail (listing.c's defects): the selector, the
/// item, row and sample, and what the host expected instead. (ConformanceTests proves each defect fails
/// exactly its check.)
struct ConformCallChecksTests {
    func reason(_ defines: [String], _ check: String) throws -> String {
        let folder = try TemporaryFolder("conform-calls")
        let library = folder.file("libListing.so")
        try compileCPlugin("listing.c", to: library, defines: defines)
        let result = try floorhost(["conform", library, "--include", check, "--format", "json"])
        #expect(result.status == 1)
        let checks = try #require((try jsonObject(result.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        return try #require(checks.first { $0["check"] as? String == check }?["reason"] as? String)
    }

    @Test func aCrashingActionIsNamedWithItsItemAndRow() throws {
        #expect(try reason(["CRASH_IN_ACTION"], "actions")
                == "crashed with SIGSEGV in actionForListingRow:item: on item 0 of row 2 ('ListingRow') of sample 1 ('Listing' from its registration)")
        #expect(try reason(["ACTION_EMPTY_URL"], "actions")
                == "actionForListingRow:item: on item 0 of row 0 ('ListingRow') of sample 1 ('Listing' from its registration): jumped to an empty URL")
    }

    @Test func anExtenderMustReportDuplicatesAndKeepItsClaims() throws {
        let duplicates = try reason(["EXTEND_KEEPS_DUPLICATES"], "extend")
        #expect(duplicates.contains("reported 0 dropped duplicates, but all 3 items have ids already in the floor"), "\(duplicates)")
        let claim = try reason(["EXTEND_PREPENDS"], "extend")
        #expect(claim.contains("with new item ids claimed 3 leading and 0 trailing unchanged rows, but row 0 (one of the claimed leading rows) changed: drawing operation 1 was text(x: 4.0, y: 6.0, max_width: 367.0, \"a\"), now text(x: 4.0, y: 6.0, max_width: 367.0, \"a-next\")"), "\(claim)")
    }

    @Test func aValidatorThatRefusesItsSampleIsNamedWithThePath() throws {
        #expect(try reason(["VALIDATE_REFUSES_ALL"], "validate")
                == "validateListing: rejected sample 1 ('Listing' from its registration): items[0].id: no listing is ever valid; a sample must be a floor the page would show")
    }
}
