import FloorConform
import FloorSession
import Foundation
import Testing

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
        let checks = try #require(
            (try jsonObject(result.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        return try #require(checks.first { $0["check"] as? String == check }?["reason"] as? String)
    }

    @Test func aCrashingActionIsNamedWithItsItemAndRow() throws {
        #expect(
            try reason(["CRASH_IN_ACTION"], "actions")
                == "crashed with SIGSEGV in actionForListingRow:item: on item 0 of row 2 ('ListingRow') of sample 1 ('Listing' from its registration)"
        )
        #expect(
            try reason(["ACTION_EMPTY_URL"], "actions")
                == "actionForListingRow:item: on item 0 of row 0 ('ListingRow') of sample 1 ('Listing' from its registration): jumped to an empty URL"
        )
    }

    @Test func anExtenderMustReportDuplicatesAndKeepItsClaims() throws {
        let duplicates = try reason(["EXTEND_KEEPS_DUPLICATES"], "extend")
        #expect(
            duplicates.contains("reported 0 dropped duplicates, but all 3 items have ids already in the floor"),
            "\(duplicates)")
        let claim = try reason(["EXTEND_PREPENDS"], "extend")
        #expect(
            claim.contains(
                "with new item ids claimed 3 leading and 0 trailing unchanged rows, but row 0 (one of the claimed leading rows) changed: drawing operation 1 was text(x: 4.0, y: 6.0, max_width: 367.0, \"a\"), now text(x: 4.0, y: 6.0, max_width: 367.0, \"a-next\")"
            ), "\(claim)")
    }

    @Test func aValidatorThatRefusesItsSampleIsNamedWithThePath() throws {
        #expect(
            try reason(["VALIDATE_REFUSES_ALL"], "validate")
                == "validateListing: rejected sample 1 ('Listing' from its registration): items[0].id: no listing is ever valid; a sample must be a floor the page would show"
        )
    }

    /// validate's second half: a copy of the sample broken per the floor type's schema must be refused. badge.c
    /// with TEXT_OPTIONAL declares "text" required but decodes a badge without it; with "text" required by
    /// its decoder too, the same schema passes (a copy with "text" a number is refused at "text").
    @Test func aSchemaRequiringWhatTheDecoderDoesNotIsNamedWithTheField() throws {
        let folder = try TemporaryFolder("conform-schema-refusal")
        let lax = folder.file("libBadgeLax.so")
        let strict = folder.file("libBadgeStrict.so")
        try compileCPlugin(to: lax, defines: ["WITH_SCHEMA", "TEXT_OPTIONAL"])
        try compileCPlugin(to: strict, defines: ["WITH_SCHEMA"])
        let failed = try floorhost(["conform", lax, "--include", "validate", "--format", "json"])
        #expect(failed.status == 1)
        let checks = try #require(
            (try jsonObject(failed.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        let reason = try #require(checks.first { $0["check"] as? String == "validate" }?["reason"] as? String)
        #expect(
            reason
                == #"decodeBadge: accepted sample 1 ('Badge' from its registration) with required field 'text' removed ("{"id":"badge","type":"Badge"}"), which the schema_json of 'Badge' forbids; refuse it in the decoder with the path 'text', or, if the floor can do without it, take 'text' out of the schema's "required" or widen its "type""#,
            "\(reason)")
        let passed = try floorhost(["conform", strict, "--include", "validate"])
        #expect(passed.status == 0, "\(passed.stdout)")
    }

    /// Which copies validate breaks, on a shipped schema: ProductFeed's sample has a header and two products.
    /// Besides the root "items", the header's required "title" and each required field of the first product
    /// (and of its jump) are removed and retyped; optional fields and later products are left alone. ProductFeed
    /// passes conform (ConformanceTests) because @DroppingBrokenItems leaves such a product out with a warning.
    @Test func schemaBrokenCopiesReachIntoObjectsAndTheFirstElementOfLists() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let id = try #require(host.registry.floorTypeID(named: "ProductFeed"))
        let type = host.registry.floorTypes[Int(id)]
        let sample = SampleSet.Sample(
            floorType: id, bytes: Array(try #require(type.sampleJSON).utf8), label: "sample 1")
        let copies = BehaviourChecks.brokenPerSchema(sample, type)
        #expect(
            copies.map(\.what) == [
                "with required field 'items' removed", "with required field 'items' given a string",
                "with required field 'header.title' removed", "with required field 'header.title' given a number",
                "with required field 'items[0].id' removed", "with required field 'items[0].id' given a number",
                "with required field 'items[0].title' removed", "with required field 'items[0].title' given a number",
                "with required field 'items[0].price' removed", "with required field 'items[0].price' given true",
                "with required field 'items[0].img' removed", "with required field 'items[0].img' given a number",
                "with required field 'items[0].jump.url' removed",
                "with required field 'items[0].jump.url' given a number",
            ])
        let jumpless = try #require(copies.first { $0.field == "items[0].jump.url" })
        #expect(jumpless.elements == ["items[0]"] && jumpless.requiredAt == "items[].jump" && jumpless.name == "url")
        let product = try #require(
            (try JSONSerialization.jsonObject(with: Data(jumpless.bytes)) as? [String: Any])?["items"]
                as? [[String: Any]])
        #expect(
            product.count == 2 && product[0]["jump"] as? [String: String] == ["eventId": "feed_click"]
                && product[1]["jump"] != nil)
    }

    /// The schema-broken copies reach inside the floor: listing.c with WITH_SCHEMA requires a string "id" in
    /// every element of "items". With ITEM_ID_OPTIONAL its decoder skips an element without one, so the copy
    /// of the sample without items[0].id is accepted, and validate fails naming that nested path (the root
    /// copies, without "items" and with "items" a string, are refused, so that copy is the first failure).
    /// Refusing the floor at "items[0].id" passes, and so does leaving just that element out with a warning
    /// at "items[0]" from a validator that returns true (DROPS_ITEM_WITHOUT_ID, what @DroppingBrokenItems does).
    @Test func aNestedRequiredFieldTheDecoderDoesWithoutIsNamedWithItsPath() throws {
        #expect(
            try reason(["WITH_SCHEMA", "ITEM_ID_OPTIONAL"], "validate")
                == #"decodeListing: accepted sample 1 ('Listing' from its registration) with required field 'items[0].id' removed ("{"id":"listing","items":[{},{"id":"b"},{..."), which the schema_json of 'Listing' forbids; refuse it in the decoder with the path 'items[0].id' (or leave out just 'items[0]' and report that path as a warning from the validator, as @DroppingBrokenItems does), or, if the floor can do without it, take 'id' out of the "required" of 'items[]' in the schema or widen its "type""#
        )
        let folder = try TemporaryFolder("conform-nested-refusal")
        for defines in [["WITH_SCHEMA"], ["WITH_SCHEMA", "DROPS_ITEM_WITHOUT_ID"]] {
            let library = folder.file("libListing\(defines.count).so")
            try compileCPlugin("listing.c", to: library, defines: defines)
            let passed = try floorhost(["conform", library, "--include", "validate"])
            #expect(passed.status == 0, "\(defines): \(passed.stdout)")
        }
    }
}
