import FloorConform
import FloorSession
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What CI systems need of `floorhost conform`: `--include`/`--exclude` to pick checks, `--format junit`
/// beside json, and a type name two plugins of a folder claim named with both.
struct ConformSelectionTests {
    @Test func includeReportsOnlyTheChecksNamedAndExcludeLeavesChecksOut() throws {
        let folder = try TemporaryFolder("conform-include")
        let library = folder.file("libBadge.so")
        try compileCPlugin(to: library, defines: ["NAN_HEIGHT"])
        func checks(_ arguments: [String]) throws -> [String: String] {
            let result = try floorhost(["conform", library, "--format", "json"] + arguments)
            let checks = try #require(
                (try jsonObject(result.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: checks.map { ($0["check"] as! String, $0["verdict"] as! String) })
        }
        // heights needs samples (and what samples needs): run, not reported.
        #expect(try checks(["--include", "heights"]) == ["heights": "fail"])
        #expect(
            try checks(["--include", "actions,samples", "--include", "validate"]) == [
                "samples": "pass", "validate": "pass", "actions": "pass",
            ])
        let excluded = try checks(["--exclude", "heights,balanced-models"])
        #expect(excluded["heights"] == nil && excluded["balanced-models"] == nil)
        // The checks that need heights run as if it had passed: the NaN is not theirs to judge.
        #expect(excluded["deterministic"] == "pass" && excluded.count == ConformanceCheck.all.count - 2, "\(excluded)")
        // A NaN-high cell also draws outside itself: without those two checks, the plugin passes.
        let passing = try floorhost(["conform", library, "--exclude", "heights", "--exclude", "drawing-bounds"])
        #expect(passing.status == 0, "\(passing.stdout)")

        let unknown = try floorhost(["conform", library, "--include", "hieghts"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains("unknown check 'hieghts'; the checks are loadable, entry-symbol"),
            "\(unknown.stderr)")
    }

    #if canImport(FoundationXML)
    @Test func junitOutputParsesAndCarriesEveryVerdict() throws {
        let folder = try TemporaryFolder("conform-junit")
        let broken = folder.file("libBroken.so")
        let sound = folder.file("libSound.so")
        try compileCPlugin(to: broken, defines: ["NAN_HEIGHT", #"PLUGIN_ID="com.example.<broken&>""#])
        try compileCPlugin("listing.c", to: sound)
        let result = try floorhost(["conform", "--format", "junit", folder.path])
        #expect(result.status == 1)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let total = ConformanceCheck.all.count * 2
        #expect(root.attribute(forName: "tests")?.stringValue == "\(total)")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(
            root.attribute(forName: "skipped")?.stringValue == "3",
            "deterministic, drawing-bounds and collections need heights")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["libBroken.so", "libSound.so"])
        let cases = suites[0].elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue ?? "" } == ConformanceCheck.all.map(\.id))
        #expect(cases[0].attribute(forName: "classname")?.stringValue == "conform.com.example.<broken&>")
        let heights = try #require(cases.first { $0.attribute(forName: "name")?.stringValue == "heights" })
        let failure = try #require(heights.elements(forName: "failure").first)
        #expect(
            failure.attribute(forName: "message")?.stringValue?.contains(
                "heightForBadgeRow:width: returned nan for row 0") == true)
        let skipped = try #require(
            cases.first { $0.attribute(forName: "name")?.stringValue == "deterministic" }?.elements(forName: "skipped")
                .first)
        #expect(skipped.attribute(forName: "message")?.stringValue == "needs heights, which did not pass")
        #expect(
            suites[1].elements(forName: "testcase").allSatisfy { $0.children?.isEmpty ?? true },
            "every check of the sound plugin passed")
    }
    #endif

    @Test func aFloorTypeTwoPluginsOfAFolderClaimFailsOnlyTheNewcomer() throws {
        let folder = try TemporaryFolder("conform-clash-folder")
        try compileCPlugin("listing.c", to: folder.file("libListing.so"))
        // Another plugin, its own id, registering the floor type 'Listing' too: it sorts after, and neither is
        // pinned or known to the scan cache, so the first keeps the type.
        try compileCPlugin(
            to: folder.file("libSecond.so"), defines: [#"PLUGIN_ID="com.example.second""#, #"FLOOR_TYPE="Listing""#])
        let result = try floorhost(["conform", folder.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let clashes = lines.filter { $0.hasPrefix("  FAIL  type-names ") }
        #expect(clashes.count == 1, "\(result.stdout)")
        #expect(
            clashes.first?.contains(
                "floor type 'Listing' is already registered by com.floorkit.test.listing (\(folder.file("libListing.so")))"
            ) == true, "\(clashes)")
    }

}
