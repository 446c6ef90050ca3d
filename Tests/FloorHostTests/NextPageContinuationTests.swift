import FloorCheck
import FloorSession
import Foundation
import Testing

/// A next page's floor with an id already on the page continues that floor, but it is decoded first as a
/// whole floor of its own: a field its decoder requires must be on page 2 too. When it is not, the message
/// says that, not "already on the page with type 'Listing', not 'Listing'" (issue 12, kit item 6).
struct NextPageContinuationTests {
    @Test func aContinuationThatDoesNotDecodeSaysSoAndNamesTheRule() throws {
        let folder = try TemporaryFolder("continuation")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("listing.c", to: plugins + "/libListing.so")
        try folder.write(
            "page-1.json",
            #"{"floors":[{"type":"Listing","id":"l","items":[{"id":"a"},{"id":"b"}]}],"next":"page-2.json"}"#)
        // The continuation leaves out `items`, which the decoder requires.
        try folder.write("page-2.json", #"{"floors":[{"type":"Listing","id":"l","more":[{"id":"c"}]}],"next":null}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let check = PageCheck.run(file: folder.file("page-1.json"), registry: host.registry)
        let messages = check.problems.map(\.message)
        #expect(!messages.contains { $0.contains("with type 'Listing', not 'Listing'") }, "\(messages)")
        let continuation = try #require(messages.first { $0.contains("continues floor 'l'") }, "\(messages)")
        #expect(continuation.hasPrefix(folder.file("page-2.json") + ": floors[0] (floor 'l'): "), "\(continuation)")
        #expect(
            continuation.contains("did not decode on its own (items: a listing needs an \"items\" array)"),
            "\(continuation)")
        #expect(
            continuation.contains("every field its decoder requires must be on the next page too"), "\(continuation)")
    }

    @Test func aContinuationOfAnotherTypeStillNamesBothTypes() throws {
        let folder = try TemporaryFolder("continuation-type")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("listing.c", to: plugins + "/libListing.so")
        try compileCPlugin("badge.c", to: plugins + "/libBadge.so")
        try folder.write(
            "page-1.json", #"{"floors":[{"type":"Listing","id":"l","items":[{"id":"a"}]}],"next":"page-2.json"}"#)
        try folder.write("page-2.json", #"{"floors":[{"type":"Badge","id":"l","text":"x"}],"next":null}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let check = PageCheck.run(file: folder.file("page-1.json"), registry: host.registry)
        let messages = check.problems.map(\.message)
        #expect(
            messages.contains {
                $0.contains("a floor with this id is already on the page with type 'Listing', not 'Badge'")
            }, "\(messages)")
    }
}
