import Foundation
import Testing

/// floorhost keeps what it reads of the fonts' layout tables between runs (FontFactsLocation, FloorText's
/// FontFactsCache): the first run writes a file a face, the next reads them without writing, and every run draws
/// the same bytes as one that keeps nothing (FLOORKIT_FONT_CACHE=off); a file garbled in between is read past and
/// written anew.
struct FontFactsLocationTests {
    @Test func aLaterRunReadsWhatAnEarlierKeptAndDrawsTheSame() throws {
        let folder = try TemporaryFolder("font-facts")
        let plugins = try folder.installShippedPlugins()
        let facts = folder.file("cache/font-facts")
        func render(keepingIn cache: String) throws -> String {
            var environment = ProcessInfo.processInfo.environment
            environment["FLOORKIT_FONT_CACHE"] = cache
            environment["FLOORKIT_PLUGIN_CACHE"] = folder.file("scan.json")
            let result = try run(
                Repo.floorhostBinary, ["--plugins", plugins, Repo.path("Examples/home.json")],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        func kept() throws -> [String: Int] {
            var inodes: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: facts) {
                let attributes = try FileManager.default.attributesOfItem(atPath: facts + "/" + name)
                inodes[name] = (attributes[.systemFileNumber] as? NSNumber)?.intValue
            }
            return inodes
        }

        let nothingKept = try render(keepingIn: "off")
        #expect(!FileManager.default.fileExists(atPath: facts))
        #expect(try render(keepingIn: facts) == nothingKept)
        let first = try kept()
        #expect(
            Set(first.keys)
                == [
                    "NotoSans-Regular.ttf-0.facts", "NotoSans-Bold.ttf-0.facts", "NotoSansCJK-Regular.ttc-0.facts",
                    "NotoSansCJK-Bold.ttc-0.facts",
                ],
            "a file for each face the page's texts use")
        #expect(try render(keepingIn: facts) == nothingKept)
        #expect(try kept() == first, "read, not written again")

        let garbled = facts + "/NotoSans-Regular.ttf-0.facts"
        let whole = try Data(contentsOf: URL(fileURLWithPath: garbled))
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: garbled))
        #expect(try render(keepingIn: facts) == nothingKept)
        let after = try kept()
        #expect(after["NotoSans-Regular.ttf-0.facts"] != first["NotoSans-Regular.ttf-0.facts"], "written anew")
        #expect(try Data(contentsOf: URL(fileURLWithPath: garbled)) == whole)
        #expect(after["NotoSansCJK-Regular.ttc-0.facts"] == first["NotoSansCJK-Regular.ttc-0.facts"])
    }

    @Test func aFolderThatCannotBeMadeKeepsNothingAndDrawsTheSame() throws {
        let folder = try TemporaryFolder("font-facts-blocked")
        let plugins = try folder.installShippedPlugins()
        let blocker = try folder.write("blocker", "a file where the folder would go")
        var environment = ProcessInfo.processInfo.environment
        environment["FLOORKIT_PLUGIN_CACHE"] = folder.file("scan.json")
        var outputs: [String] = []
        for cache in ["off", blocker + "/font-facts"] {
            environment["FLOORKIT_FONT_CACHE"] = cache
            let result = try run(
                Repo.floorhostBinary, ["--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json"],
                environment: environment)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "nothing said: it is a cache")
            outputs.append(result.stdout)
        }
        #expect(outputs[0] == outputs[1])
    }
}
