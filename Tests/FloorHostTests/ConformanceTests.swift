import FloorConform
import FloorSession
import Foundation
import Testing

/// One deliberately broken plugin per check (Tests/Fixtures/CPlugins/broken-plugins.json: a C fixture,
/// badge.c unless `source` names another, compiled with one defect macro, or a file that is not a shared
/// object), and what `floorhost conform` must say.
struct BrokenPlugin: Sendable, CustomTestStringConvertible {
    let name: String
    /// The C fixture in Tests/Fixtures/CPlugins.
    let source: String
    let defines: [String]
    /// A file with this text instead of a compiled plugin.
    let text: String?
    /// The one check that must fail.
    let fails: String
    /// Extra `floorhost conform` arguments the defect needs to show (a call limit, say).
    let arguments: [String]

    var testDescription: String { name }

    static let all: [BrokenPlugin] = {
        let data =
            FileManager.default.contents(atPath: Repo.path("Tests/Fixtures/CPlugins/broken-plugins.json")) ?? Data()
        let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
        return entries.map {
            BrokenPlugin(
                name: $0["name"] as! String, source: $0["source"] as? String ?? "badge.c",
                defines: $0["defines"] as? [String] ?? [], text: $0["text"] as? String,
                fails: $0["fails"] as! String, arguments: $0["arguments"] as? [String] ?? [])
        }
    }()

    /// Builds the plugin as `lib<name>.so` in `folder`. `unique` gives it its own id and type names, so that
    /// several can be checked together without clashing.
    func make(in folder: String, unique: Bool = false) throws -> String {
        let library = folder + "/lib\(name).so"
        if let text {
            try text.write(toFile: library, atomically: true, encoding: .utf8)
        } else {
            let tag = name.replacingOccurrences(of: "-", with: "_")
            let identity =
                unique
                ? [
                    #"PLUGIN_ID="com.floorkit.test.\#(tag)""#, #"FLOOR_TYPE="Badge_\#(tag)""#,
                    #"ROW_TYPE="BadgeRow_\#(tag)""#,
                ] : []
            // The defect's own definition of a macro wins over the unique identity.
            let macro = { (define: String) in define.prefix { $0 != "=" } }
            try compileCPlugin(
                source, to: library,
                defines: defines + identity.filter { id in !defines.contains { macro($0) == macro(id) } })
        }
        return library
    }
}

/// `floorhost conform`: each defect is flagged by exactly its check, with a reason; crashes and hangs are
/// contained in child processes; the shipped plugins pass.
struct ConformanceTests {
    /// The hang fixture costs this many seconds per run; every other check finishes in well under a tenth
    /// of it, even on a loaded machine.
    static let hangTimeout = "4"

    /// Runs `floorhost conform --format json` and returns the exit status and the parsed report.
    func conform(_ paths: [String], _ extra: [String] = []) throws -> (
        status: Int32, report: [String: Any], stderr: String
    ) {
        let result = try floorhost(["conform", "--format", "json"] + extra + paths)
        let report = try jsonObject(result.stdout)
        return (result.status, report, result.stderr)
    }

    func plugins(_ report: [String: Any]) throws -> [[String: Any]] {
        try #require(report["plugins"] as? [[String: Any]])
    }

    func checks(_ plugin: [String: Any]) throws -> [[String: Any]] {
        try #require(plugin["checks"] as? [[String: Any]])
    }

    func verdicts(_ plugin: [String: Any], _ verdict: String) throws -> [String] {
        try checks(plugin).filter { $0["verdict"] as? String == verdict }.map { $0["check"] as! String }
    }

    @Test func theFixtureTableCoversEveryCheck() {
        #expect(
            Set(BrokenPlugin.all.map(\.fails)) == Set(ConformanceCheck.all.map(\.id)).subtracting(["unique-id"]),
            "unique-id needs two plugins: see twoPluginsWithOneIdAndClashingTypeNames")
        #expect(BrokenPlugin.all.count >= 16)
    }

    @Test(arguments: BrokenPlugin.all)
    func eachBrokenPluginIsFlaggedByExactlyItsCheck(_ broken: BrokenPlugin) throws {
        let folder = try TemporaryFolder("conform-\(broken.name)")
        let library = try broken.make(in: folder.path)
        let (status, report, stderr) = try conform([library], ["--timeout", Self.hangTimeout] + broken.arguments)
        #expect(status == 1, "the parent reports the failure and exits 1, it does not crash: \(stderr)")
        let plugin = try #require(try plugins(report).first)
        #expect(plugin["file"] as? String == library)
        #expect(plugin["passed"] as? Bool == false)
        #expect(
            try checks(plugin).map { $0["check"] as? String } == ConformanceCheck.all.map(\.id),
            "every check gets a verdict, in order")
        #expect(try verdicts(plugin, "fail") == [broken.fails])
        let failure = try #require(try checks(plugin).first { $0["check"] as? String == broken.fails })
        let reason = try #require(failure["reason"] as? String)
        #expect(!reason.isEmpty && !reason.contains("\n"))
        // Skips happen only downstream of the failure, never instead of a verdict that could be given.
        for skipped in try verdicts(plugin, "skip") {
            let check = try #require(ConformanceCheck.named(skipped))
            let reasonOfSkip = try #require(
                try checks(plugin).first { $0["check"] as? String == skipped }?["reason"] as? String)
            #expect(reasonOfSkip.hasPrefix("needs ") || reasonOfSkip.hasPrefix("stopped after "), "\(check)")
        }
    }

    @Test func crashesAndHangsNameWhatWasRunning() throws {
        let folder = try TemporaryFolder("conform-crashes")
        let byName = Dictionary(uniqueKeysWithValues: BrokenPlugin.all.map { ($0.name, $0) })
        let segfault = try byName["segfault-in-height"]!.make(in: folder.path)
        let abort = try byName["abort-at-registration"]!.make(in: folder.path, unique: true)
        let hang = try byName["hang-in-decode"]!.make(in: folder.path, unique: true)
        let (_, report, _) = try conform([segfault, abort, hang], ["--timeout", Self.hangTimeout])
        let results = try plugins(report).map { plugin in
            Dictionary(uniqueKeysWithValues: try checks(plugin).map { ($0["check"] as! String, $0) })
        }
        let heights = try #require(results[0]["heights"]?["reason"] as? String)
        #expect(heights.contains("crashed with SIGSEGV in heightForBadgeRow:width: on row 0 of sample 1"))
        // After the crash a fresh child went on with the checks that do not need heights.
        #expect(results[0]["refuses-bad-json"]?["verdict"] as? String == "pass")
        #expect(results[0]["balanced-models"]?["verdict"] as? String == "pass")
        #expect(results[0]["deterministic"]?["reason"] as? String == "needs heights, which did not pass")

        #expect(
            results[1]["registration"]?["reason"] as? String == "crashed with SIGABRT in init (registering its types)")
        #expect(
            try plugins(report)[1]["id"] as? String == "com.floorkit.test.abort_at_registration",
            "identity is known before init runs")

        let timeLimit = try #require(results[2]["time-limit"]?["reason"] as? String)
        #expect(timeLimit.contains("no answer for 4 s during samples in decodeBadge: on sample 1"), "\(timeLimit)")
        #expect(timeLimit.contains("the child was killed"))
        #expect(results[2]["samples"]?["verdict"] as? String == "skip")
    }

    @Test func aSlowCallThatReturnsFailsTheTimeLimitAndNothingElse() throws {
        let folder = try TemporaryFolder("conform-slow")
        let slow = try BrokenPlugin.all.first { $0.name == "slow-first-decode" }!.make(in: folder.path)
        let (_, report, _) = try conform([slow], ["--call-limit", "0.5"])
        let plugin = try #require(try plugins(report).first)
        #expect(try verdicts(plugin, "fail") == ["time-limit"])
        let reason = try #require(
            try checks(plugin).first { $0["check"] as? String == "time-limit" }?["reason"] as? String)
        #expect(reason.hasPrefix("decodeBadge: took 0."), "\(reason)")
        #expect(reason.hasSuffix(" s (limit 0.5 s) during samples"), "\(reason)")
        // With the default limit (1 s) the same plugin passes: the limit is what judges it.
        let (status, _, _) = try conform([slow])
        #expect(status == 0)
    }

    @Test func aFolderOfBrokenPluginsIsCheckedInOneRunThatSurvivesThemAll() throws {
        let folder = try TemporaryFolder("conform-folder")
        for broken in BrokenPlugin.all { _ = try broken.make(in: folder.path, unique: true) }
        let result = try floorhost(["conform", "--timeout", Self.hangTimeout, "--call-limit", "0.5", folder.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for broken in BrokenPlugin.all {
            let header = try #require(
                lines.firstIndex { $0.hasPrefix(folder.path + "/lib\(broken.name).so") }, "\(broken.name)")
            let failures = lines[(header + 1)...].prefix { !$0.isEmpty }.filter { $0.hasPrefix("  FAIL  ") }
            #expect(
                failures.count == 1 && failures[0].hasPrefix("  FAIL  \(broken.fails) "), "\(broken.name): \(failures)")
        }
        #expect(lines.dropLast().last?.hasPrefix("0 of \(BrokenPlugin.all.count) plugins passed; failed: ") == true)
    }

    @Test func everyShippedPluginPasses() throws {
        let libraries = Repo.shippedPlugins.map(Repo.shippedLibrary)
        let (status, report, stderr) = try conform(libraries)
        #expect(status == 0, "\(stderr)")
        #expect(report["passed"] as? Bool == true)
        for plugin in try plugins(report) {
            let notPassed = try checks(plugin).filter { $0["verdict"] as? String != "pass" }
            #expect(notPassed.isEmpty, "\(plugin["file"] ?? "?"): \(notPassed)")
            #expect(try checks(plugin).count == ConformanceCheck.all.count)
        }
        let table = try floorhost(["conform"] + libraries)
        #expect(table.status == 0)
        #expect(table.stdout.hasSuffix("4 of 4 plugins passed\n"))
    }

    @Test func twoPluginsWithOneIdAndClashingTypeNames() throws {
        let folder = try TemporaryFolder("conform-clash")
        let first = folder.file("libA.so")
        let sameID = folder.file("libB.so")
        let sameTypes = folder.file("libC.so")
        try compileCPlugin(to: first)
        try compileCPlugin(to: sameID, defines: [#"FLOOR_TYPE="Other""#, #"ROW_TYPE="OtherRow""#])
        try compileCPlugin(to: sameTypes, defines: [#"PLUGIN_ID="com.example.c""#])
        let (status, report, _) = try conform([folder.path])
        #expect(status == 1)
        let all = try plugins(report)
        #expect(all.map { $0["file"] as? String } == [first, sameID, sameTypes])
        #expect(
            try verdicts(all[0], "fail") == [],
            "the floor type stays with the first by path; row types are each plugin's own")
        #expect(try verdicts(all[1], "fail") == ["unique-id"])
        #expect(
            try checks(all[1]).first { $0["check"] as? String == "unique-id" }?["reason"] as? String
                == "plugin id 'com.floorkit.test.badge' is also the id of \(first); the host loads only the first")
        #expect(try verdicts(all[2], "fail") == ["type-names"])
        let clash = try checks(all[2]).first { $0["check"] as? String == "type-names" }?["reason"] as? String
        #expect(
            clash
                == "floor type 'Badge' is already registered by com.floorkit.test.badge (\(first)), which keeps it because it comes first by path (neither is pinned in plugins.lock or known to the scan cache before the other); the claim of com.example.c (\(sameTypes)) is refused and floors of type 'Badge' are drawn by com.floorkit.test.badge; give the floor type of com.example.c another name to have both",
            "the host's own words, naming only the floor type: \(clash ?? "")")
    }

    @Test func samplesMayShipBesideTheLibrary() throws {
        let folder = try TemporaryFolder("conform-samples")
        let library = folder.file("libBadge.so")
        try compileCPlugin(to: library, defines: ["NO_SAMPLE_JSON"])
        try folder.write(
            "libBadge.samples.json",
            #"{"floors":[{"type":"Badge","id":"b1","text":"from the samples page"},{"type":"Badge","id":"b2","text":"二"}]}"#
        )
        let (status, report, _) = try conform([library])
        #expect(status == 0)
        #expect(report["passed"] as? Bool == true)

        try folder.write("libBadge.samples.json", #"{"floors":[{"type":"Nope","id":"n"}]}"#)
        let (_, wrong, _) = try conform([library])
        let samples = try checks(try plugins(wrong)[0]).first { $0["check"] as? String == "samples" }
        #expect(
            samples?["reason"] as? String
                == "libBadge.samples.json: floors[0] has type 'Nope', which this plugin does not register")
    }

    @Test func usageErrors() throws {
        let folder = try TemporaryFolder("conform-usage")
        let missing = try floorhost(["conform", folder.file("nope")])
        #expect(missing.status == 1)
        // conform takes paths, not --plugins: the advice says so.
        #expect(
            missing.stderr
                == "error: \(folder.file("nope")): no such plugin library or folder; give conform the path of a plugin library (.so) or of a folder that holds them\n",
            "\(missing.stderr)")
        let missingLibrary = try floorhost(["conform", folder.file("nope.so")])
        #expect(missingLibrary.status == 1)
        #expect(!missingLibrary.stderr.contains("--plugins"), "\(missingLibrary.stderr)")
        let empty = try floorhost(["conform", folder.path])
        #expect(empty.status == 1)
        #expect(empty.stdout.contains("no plugin libraries (*.so) found"))
    }

    /// The library API, with the built floorhost as the child: what the CLI wires up.
    @Test func theRunnerIsALibrary() throws {
        let folder = try TemporaryFolder("conform-library")
        let library = try BrokenPlugin.all.first { $0.name == "nan-height" }!.make(in: folder.path)
        let runner = ConformanceRunner(childCommand: [Repo.floorhostBinary, "conform-child"], checkTimeout: 30)
        let report = try runner.run(paths: [library])
        #expect(!report.passed)
        #expect(report.plugins.first?.failed == ["heights"])
        #expect(report.plugins.first?.result(.heights)?.reason?.contains("returned nan for row 0 ('BadgeRow')") == true)
        #expect(ConformanceTable.render(report).contains("  FAIL  heights "))
    }
}
