import FloorCore
import FloorSession
import Foundation
import Testing

/// A plugin that crashes says why on stderr first (a Swift force-unwrap: "Fatal error: Unexpectedly found
/// nil ... File.swift:115"). The isolated child's last stderr lines are quoted with the crash in render,
/// check and conform, instead of only "crashed with SIGILL in its action selector" (issue 12, kit item 2),
/// and the child's stderr still reaches floorhost's own as it is written.
struct CrashLastWordsTests {
    static let fatal =
        "ListingFloor/ListingFloor.swift:115: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
    static let quoted = "its last words on stderr: \"\(fatal)\""

    func pageFolder(_ label: String, crashIn selector: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder(label)
        try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
        try compileCPlugin("listing.c", to: folder.file("plugins/libListing.so"))
        try folder.write(
            "page.json",
            #"{"floors":[{"type":"Listing","id":"fine","items":[{"id":"a"}]},{"type":"Listing","id":"bad","items":[{"id":"b"},{"id":"fatal:\#(selector)"}]}],"next":null}"#
        )
        return folder
    }

    @Test func checkQuotesThePluginsLastWordsWithTheCrash() throws {
        let folder = try pageFolder("last-words-check", crashIn: "action")
        let result = try floorhost(["check", "--plugins", folder.file("plugins"), folder.file("page.json")])
        #expect(result.status == 1)
        // check prints its problems on stdout; the child's own stderr went to floorhost's stderr as it came.
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("floors[1] (floor 'bad'): not shown") },
            "\(result.stdout)")
        #expect(result.stderr.split(separator: "\n").contains { $0 == Self.fatal })
        #expect(
            line.contains(
                "crashed with SIGILL in its action selector on this floor; \(Self.quoted)"),
            "\(line)")

        let json = try floorhost([
            "check", "--plugins", folder.file("plugins"), folder.file("page.json"), "--format", "json",
        ])
        let problems = try #require(try jsonObject(json.stdout)["problems"] as? [[String: Any]])
        #expect(
            problems.contains {
                ($0["message"] as? String)?.hasSuffix("\(Self.quoted) (shown as a placeholder)") == true
            }, "\(problems)")
    }

    @Test func renderQuotesThemAndStillPassesStderrOnLive() throws {
        let folder = try pageFolder("last-words-render", crashIn: "cell")
        let result = try floorhost(["--plugins", folder.file("plugins"), folder.file("page.json")])
        #expect(result.status == 0, "the rest of the page renders: \(result.stderr)")
        #expect(result.stdout.contains("Listing 'bad' not shown"), "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.contains(
                    "crashed with SIGILL in its cell selector on this floor; \(Self.quoted)")
            }, "\(result.stderr)")
        // What the crashed child wrote went through as it was written, too.
        #expect(lines.contains(Self.fatal), "\(result.stderr)")
    }

    @Test func conformQuotesThemInTheFailedCheck() throws {
        let folder = try TemporaryFolder("last-words-conform")
        let library = folder.file("libListing.so")
        try compileCPlugin("listing.c", to: library)
        try folder.write(
            "libListing.samples.json", #"{"floors":[{"type":"Listing","id":"s","items":[{"id":"fatal:height"}]}]}"#)
        let result = try floorhost(["conform", library, "--include", "heights", "--format", "json"])
        let checks = try #require(
            (try jsonObject(result.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        let reason = try #require(checks.first?["reason"] as? String)
        #expect(reason.hasPrefix("crashed with SIGILL in heightForListingRow:width: on row 0 of sample 2"), "\(reason)")
        #expect(reason.hasSuffix(Self.quoted), "\(reason)")
    }

    @Test func theSkippedFloorArgumentCarriesTheLinesIntact() throws {
        let skipped = SkippedFloor(
            origin: FloorOrigin(page: 1, floor: 2), call: .action, failure: .crashed(signal: SIGILL),
            said: ["first: a:b", "Fatal error: 你好 \u{1B}[31m"])
        let parsed = try #require(SkippedFloor(argument: skipped.argument))
        #expect(parsed == skipped)
        #expect(
            SkippedFloor(argument: "0:2:height:11")
                == SkippedFloor(origin: FloorOrigin(page: 0, floor: 2), call: .height, failure: .crashed(signal: 11)))
    }
}
