import Foundation
import Testing

/// The plugin author's path, end to end: `Scripts/new-floor` scaffolds a package outside this repository;
/// it builds, its own tests (the floor through the test kit, then `floorhost conform` with its extra samples
/// page) pass untouched, and the already-built floorhost renders a page with the new floor (README, "Write a floor").
struct NewFloorTests {
    /// The scaffolded package's environment: swift on PATH, this build's floorhost, and no FLOORKIT_SDK
    /// (unless `sdk` is given), so the package has to find the SDK on its own.
    func environment(sdk: String? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/opt/swift/usr/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["FLOORHOST"] = Repo.floorhostBinary
        environment["FLOORKIT_SDK"] = sdk
        return environment
    }

    @Test(.timeLimit(.minutes(10)))
    func aScaffoldedFloorBuildsPassesConformAndRendersWithTheAlreadyBuiltHost() throws {
        let binary = Repo.floorhostBinary
        let before = try FileManager.default.attributesOfItem(atPath: binary)
        let folder = try TemporaryFolder("new-floor")
        // The checkout as a folder beside the new package (a link to it), and a package folder not named
        // after the floor: the package still is.
        try FileManager.default.createSymbolicLink(atPath: folder.file("floorkit"), withDestinationPath: Repo.root)
        let package = folder.file("coupon-strip")

        let scaffold = try run(folder.file("floorkit/Scripts/new-floor"), ["CouponStrip", package])
        #expect(scaffold.status == 0, "\(scaffold.stderr)")
        for file in [
            "Package.swift", "Sources/CouponStripFloor/CouponStripFloor.swift",
            "Tests/CouponStripFloorTests/ConformanceTests.swift",
            "Tests/CouponStripFloorTests/CouponStripFloorTests.swift",
            "page.json", "README.md",
            "libCouponStripFloor.samples.json", ".gitignore", ".git/HEAD",
        ] {
            #expect(FileManager.default.fileExists(atPath: package + "/" + file), "\(file)")
        }
        // Portable: the SDK by a relative path, and no file names this machine's checkout.
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#"return "../floorkit/SDK""#), "\(manifest)")
        #expect(manifest.contains(#"name: "CouponStripFloor""#))
        for file in FileManager.default.subpaths(atPath: package) ?? [] where !file.hasPrefix(".git") {
            let text = (try? String(contentsOfFile: package + "/" + file, encoding: .utf8)) ?? ""
            #expect(!text.contains(Repo.root) && !text.contains(folder.path), "\(file) holds an absolute path")
        }

        // The package's own tests: the floor through the test kit in-process (every one of them ran and
        // passed), then floorhost conform on the built library.
        let test = try run("/usr/bin/env", ["swift", "test", "--package-path", package], environment: environment())
        #expect(test.status == 0, "the scaffolded package's test failed:\n\(test.stdout)\(test.stderr)")
        let output = test.stdout + test.stderr
        for kitTest in [
            "theFloorRegistersWithoutWarnings", "theSampleDecodesIntoOneRowPerItem",
            "aRowIsAsTallAsItsHeightSaysAndDrawsItsLabel", "aStickyHeaderComesFirst",
            "aBrokenItemIsLeftOutWithItsPath", "aFloorWithoutItemsIsRefusedWithThePath",
            "everyExtraSampleDrawsInsideItsCells",
        ] {
            #expect(output.contains("Test \(kitTest)() passed"), "\(kitTest)")
        }
        #expect(output.contains("Test conformancePasses() passed"))

        let library = package + "/.build/debug/libCouponStripFloor.so"
        let conform = try floorhost(["conform", "--format", "json", library])
        #expect(conform.status == 0, "\(conform.stdout)")
        #expect(try jsonObject(conform.stdout)["passed"] as? Bool == true)
        // That first test run recorded the drawing of the registration's sample and of both floors of
        // libCouponStripFloor.samples.json; conform verifies them clean.
        let recorded =
            FileManager.default.subpaths(atPath: package + "/Snapshots")?.filter { $0.hasSuffix(".txt") } ?? []
        #expect(
            recorded.sorted() == [
                "com.example.floor.coupon-strip/CouponStrip-cjk.txt",
                "com.example.floor.coupon-strip/CouponStrip-with-header.txt",
                "com.example.floor.coupon-strip/CouponStrip.txt",
            ], "\(recorded)")
        let verify = try floorhost([
            "conform", library, "--include", "samples", "--snapshots", package + "/Snapshots", "--verify",
        ])
        #expect(verify.status == 0, "\(verify.stdout)")

        // Into a plugin folder beside a shipped floor, and onto a page: no rebuild of floorhost.
        let plugins = try folder.installShippedPlugins(["Title"])
        try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libCouponStripFloor.so")
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"t","title":"领券中心"},{"type":"CouponStrip","id":"c","items":[{"id":"a","label":"¥20 off over ¥199"}]}]}"#
        )
        let render = try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("cache.json"), page])
        #expect(render.status == 0)
        #expect(render.stderr.isEmpty, "\(render.stderr)")
        #expect(render.stdout.contains("│ ¥20 off over ¥199"))
        let own = try floorhost([
            "--plugins", plugins, "--plugin-cache", folder.file("cache.json"), package + "/page.json",
        ])
        #expect(own.stdout.contains("Hello from the CouponStrip floor"))
        // Its items are @DroppingBrokenItems: a broken one is left out with a warning, the others show.
        let broken = try folder.write(
            "broken.json",
            #"{"floors":[{"type":"CouponStrip","id":"c","items":[{"id":"a","label":"kept"},{"id":"b","label":7}]}]}"#)
        let partly = try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("cache.json"), broken])
        #expect(partly.status == 0)
        #expect(partly.stdout.contains("│ kept"))
        #expect(
            partly.stderr.contains(
                "floors[0].items[1].label (floor 'c'): expected a string, found number; item left out"),
            "\(partly.stderr)")

        // Its schema is derived from the model's fields, with the scaffold's notes as descriptions, and
        // floorhost holds pages to it.
        let schema = try floorhost(["schema", "--plugins", plugins, "--plugin-cache", folder.file("cache.json")])
        let defs = try #require(try jsonObject(schema.stdout)["$defs"] as? [String: Any])
        let strip = try #require(defs["floor-CouponStrip"] as? [String: Any])
        let item = try #require(
            ((strip["properties"] as? [String: Any])?["items"] as? [String: Any])?["items"] as? [String: Any])
        #expect((item["properties"] as? [String: Any])?.keys.sorted() == ["id", "label"])
        #expect(
            ((item["properties"] as? [String: Any])?["label"] as? [String: Any])?["description"] as? String
                == "The item's text.")
        let typo = try folder.write(
            "typo.json", #"{"floors":[{"type":"CouponStrip","id":"c","items":[{"id":"a","label":"x","lable":"y"}]}]}"#)
        let check = try floorhost(["check", "--plugins", plugins, "--plugin-cache", folder.file("cache.json"), typo])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                "floors[0].items[0].lable (floor 'c'): unknown field of CouponStrip; did you mean 'label'?"),
            "\(check.stdout)")

        // One declaration: a rule added to a field's read is in the exported schema at once.
        let source = package + "/Sources/CouponStripFloor/CouponStripFloor.swift"
        let code = try String(contentsOfFile: source, encoding: .utf8)
        try code.replacingOccurrences(of: #""The item's text.")"#, with: #""The item's text.", .nonEmpty)"#).write(
            toFile: source, atomically: true, encoding: .utf8)
        let rebuild = try run(
            "/usr/bin/env", ["swift", "build", "--package-path", package], environment: environment())
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        try FileManager.default.removeItem(atPath: plugins + "/libCouponStripFloor.so")
        try FileManager.default.copyItem(atPath: library, toPath: plugins + "/libCouponStripFloor.so")
        let noted = try floorhost(["schema", "--plugins", plugins, "--plugin-cache", folder.file("cache.json")])
        #expect(noted.status == 0)
        #expect(
            noted.stdout.filter { !$0.isWhitespace }.contains(
                #""label":{"type":"string","description":"Theitem'stext.","minLength":1}"#),
            "\(noted.stdout)")

        // The kit's tests can fail: a height that is not finite fails them, naming the selector and what
        // floorhost does with it (ABI 1.5's height rule).
        try code.replacingOccurrences(of: "height: { _, _, _ in 44 }", with: "height: { _, _, _ in .nan }")
            .write(toFile: source, atomically: true, encoding: .utf8)
        // The build just before finished within the second: swift-driver's incremental build skips a file
        // whose modification time is not after the last build's, so the edit is dated a little later.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(2)], ofItemAtPath: source)
        let failing = try run(
            "/usr/bin/env",
            ["swift", "test", "--package-path", package, "--filter", "CouponStripFloorTests.CouponStripFloorTests"],
            environment: environment())
        #expect(failing.status != 0)
        #expect(
            (failing.stdout + failing.stderr).contains(
                "heightForCouponStripItem:width: returned nan for row 0 ('CouponStripItem') at width 375; a height is a finite number of points, 0 or more, and floorhost shows this row as a placeholder"
            ),
            "\(failing.stdout)\(failing.stderr)")

        let after = try FileManager.default.attributesOfItem(atPath: binary)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date, "floorhost was rebuilt")
    }

    /// Made neither inside nor beside the checkout, a package finds the SDK through FLOORKIT_SDK, and says
    /// so when it is unset.
    @Test(.timeLimit(.minutes(2)))
    func aFloorMadeElsewhereFindsTheSDKThroughFLOORKIT_SDK() throws {
        let folder = try TemporaryFolder("new-floor-elsewhere")
        let package = folder.file("plugins/deals")
        let scaffold = try run(Repo.path("Scripts/new-floor"), ["Deals", package])
        #expect(scaffold.status == 0, "\(scaffold.stderr)")
        #expect(scaffold.stdout.contains("export FLOORKIT_SDK=\(Repo.root)/SDK"), "\(scaffold.stdout)")
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        #expect(!manifest.contains(Repo.root))

        let unset = try run(
            "/usr/bin/env", ["swift", "package", "describe", "--package-path", package], environment: environment())
        #expect(unset.status != 0)
        #expect(
            unset.stderr.contains("error: DealsFloor: set FLOORKIT_SDK to the SDK folder of a FloorKit checkout"),
            "\(unset.stderr)")
        let set = try run(
            "/usr/bin/env", ["swift", "package", "describe", "--package-path", package],
            environment: environment(sdk: Repo.path("SDK")))
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Name: DealsFloor"), "\(set.stdout)")
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
        // --help is help, not a name.
        for flag in ["--help", "-h"] {
            let help = try run(Repo.path("Scripts/new-floor"), [flag])
            #expect(help.status == 0 && help.stderr.isEmpty, "\(help.stderr)")
            #expect(help.stdout.hasPrefix("Scaffolds an out-of-tree floor plugin package"), "\(help.stdout)")
            #expect(help.stdout.contains("Scripts/new-floor NAME [DIR]") && !help.stdout.contains("set -euo"))
        }
    }
}
