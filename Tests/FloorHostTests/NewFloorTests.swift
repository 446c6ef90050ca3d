import Foundation
import Testing

/// The plugin author's path, end to end: `Scripts/new-floor` scaffolds a package outside this repository;
/// it builds, its own test runs `floorhost conform` on it and passes untouched, and the already-built
/// floorhost renders a page with the new floor (README, "Write a floor").
struct NewFloorTests {
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/opt/swift/usr/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["FLOORHOST"] = Repo.floorhostBinary
        return environment
    }

    @Test(.timeLimit(.minutes(10)))
    func aScaffoldedFloorBuildsPassesConformAndRendersWithTheAlreadyBuiltHost() throws {
        let binary = Repo.floorhostBinary
        let before = try FileManager.default.attributesOfItem(atPath: binary)
        let folder = try TemporaryFolder("new-floor")
        let package = folder.file("CouponStrip")

        let scaffold = try run(Repo.path("Scripts/new-floor"), ["CouponStrip", package])
        #expect(scaffold.status == 0, "\(scaffold.stderr)")
        for file in ["Package.swift", "Sources/CouponStripFloor/CouponStripFloor.swift",
                     "Tests/CouponStripFloorTests/ConformanceTests.swift", "page.json", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: package + "/" + file), "\(file)")
        }

        // The package's own test builds the plugin and runs floorhost conform on it.
        let test = try run("/usr/bin/env", ["swift", "test", "--package-path", package], environment: environment)
        #expect(test.status == 0, "the scaffolded package's test failed:\n\(test.stdout)\(test.stderr)")
        #expect((test.stdout + test.stderr).contains("Test conformancePasses() passed"))

        let library = package + "/.build/debug/libCouponStripFloor.so"
        let conform = try floorhost(["conform", "--format", "json", library])
        #expect(conform.status == 0, "\(conform.stdout)")
        #expect(try jsonObject(conform.stdout)["passed"] as? Bool == true)
        // That first test run recorded the sample's drawing; conform verifies it clean.
        let recorded = FileManager.default.subpaths(atPath: package + "/Snapshots")?.filter { $0.hasSuffix(".txt") } ?? []
        #expect(recorded.count == 1, "\(recorded)")
        let verify = try floorhost(["conform", library, "--include", "samples", "--snapshots", package + "/Snapshots", "--verify"])
        #expect(verify.status == 0, "\(verify.stdout)")

        // Into a plugin folder beside a shipped floor, and onto a page: no rebuild of floorhost.
        let plugins = try folder.installShippedPlugins(["Title"])
        try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libCouponStripFloor.so")
        let page = try folder.write("page.json", #"{"floors":[{"type":"Title","id":"t","title":"领券中心"},{"type":"CouponStrip","id":"c","items":[{"id":"a","label":"¥20 off over ¥199"}]}]}"#)
        let render = try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("cache.json"), page])
        #expect(render.status == 0)
        #expect(render.stderr.isEmpty, "\(render.stderr)")
        #expect(render.stdout.contains("│ ¥20 off over ¥199"))
        let own = try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("cache.json"), package + "/page.json"])
        #expect(own.stdout.contains("Hello from the CouponStrip floor"))

        let after = try FileManager.default.attributesOfItem(atPath: binary)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date, "floorhost was rebuilt")
    }

    @Test func theScriptRefusesBadNamesAndOccupiedFolders() throws {
        let folder = try TemporaryFolder("new-floor-usage")
        let lower = try run(Repo.path("Scripts/new-floor"), ["couponStrip", folder.file("a")])
        #expect(lower.status == 2)
        #expect(lower.stderr.contains("'couponStrip' is not an UpperCamelCase Swift type name"))
        try folder.write("taken/file.txt", "mine")
        let taken = try run(Repo.path("Scripts/new-floor"), ["Coupon", folder.file("taken")])
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("already exists and is not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("taken")) == ["file.txt"])
        let usage = try run(Repo.path("Scripts/new-floor"), [])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("usage: Scripts/new-floor NAME [DIR]"))
    }
}
