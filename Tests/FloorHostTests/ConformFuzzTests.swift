import FloorConform
import FloorSession
import Foundation
import Testing

/// `floorhost conform --fuzz`: mutated sample floors at random widths, in batches of child processes. A
/// planted crash (listing.c's FUZZ_PLANTED_CRASH: an item id longer than 100 bytes) is found, the failure
/// names the seed and the call, and the command it prints reproduces exactly that crash.
struct ConformFuzzTests {
    @Test func aFuzzRunFindsAPlantedCrashAndItsCommandReproducesIt() throws {
        let folder = try TemporaryFolder("conform-fuzz")
        let library = folder.file("libListing.so")
        try compileCPlugin("listing.c", to: library, defines: ["FUZZ_PLANTED_CRASH"])
        let run = try floorhost([
            "conform", library, "--include", "samples", "--fuzz", "--seed", "7", "--duration", "60", "--format", "json",
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let checks = try #require(
            (try jsonObject(run.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        let fuzz = try #require(checks.first { $0["check"] as? String == "fuzz" })
        #expect(fuzz["verdict"] as? String == "fail")
        let reason = try #require(fuzz["reason"] as? String)
        #expect(reason.contains("crashed with SIGSEGV in decodeListing: on fuzz case "), "\(reason)")
        #expect(reason.contains("long-string at items["), "the mutation that reaches the bug is named: \(reason)")
        let details = try #require(fuzz["details"] as? [String])
        let command = try #require(details.first?.split(separator: " ").map(String.init), "\(details)")
        #expect(
            Array(command.prefix(3)) == ["reproduce:", "floorhost", "conform"] && command.contains("--reproduce"),
            "\(details)")
        let seed = try #require(command.firstIndex(of: "--reproduce").map { command[$0 + 1] })
        #expect(reason.contains("fuzz case \(seed) crashed"))

        // The printed command, run as printed (with this build's floorhost), crashes the same way.
        let again = try floorhost(Array(command.dropFirst(2)) + ["--format", "json"])
        #expect(again.status == 1)
        let replay = try #require(
            (try jsonObject(again.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        #expect(replay.map { $0["check"] as? String } == ["fuzz"], "--reproduce runs the one case, no other check")
        let replayed = try #require(replay.first?["reason"] as? String)
        #expect(
            replayed.hasPrefix("fuzz case \(seed) crashed with SIGSEGV in decodeListing: on fuzz case \(seed)"),
            "\(replayed)")
        // The reproduction shows the mutant, its long strings cut.
        let mutant = try #require((replay.first?["details"] as? [String])?.first, "\(replay)")
        #expect(mutant.hasPrefix("the mutant floor: {") && mutant.contains(" characters)\""), "\(mutant)")
        #expect(mutant.count < 2000)
        // Same mutations, same call: the case is fully determined by its seed.
        #expect(replayed.split(separator: ";").first == reason.split(separator: ";").first, "\(replayed) vs \(reason)")
    }

    @Test func aPlantedHangIsKilledAtTheTimeoutAndNamedWithItsCall() throws {
        let folder = try TemporaryFolder("conform-fuzz-hang")
        let library = folder.file("libListing.so")
        try compileCPlugin("listing.c", to: library, defines: ["FUZZ_PLANTED_HANG"])
        let run = try floorhost([
            "conform", library, "--include", "samples", "--fuzz", "--seed", "11", "--duration", "60", "--timeout", "2",
        ])
        #expect(run.status == 1)
        let line = try #require(
            run.stdout.split(separator: "\n").first { $0.hasPrefix("  FAIL  fuzz") }, "\(run.stdout)")
        #expect(line.contains("hung (no answer for 2 s) in heightForListingRow:width: on row "), "\(line)")
        #expect(line.contains("reproduce it with: floorhost conform --reproduce "), "\(line)")
    }

    @Test func aSoundPluginPassesAShortFuzzRunAndSaysHowMuchRan() throws {
        let folder = try TemporaryFolder("conform-fuzz-sound")
        let library = folder.file("libListing.so")
        try compileCPlugin("listing.c", to: library)
        let run = try floorhost([
            "conform", library, "--include", "samples", "--fuzz", "--seed", "3", "--duration", "1",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  pass  fuzz"), "\(run.stdout)")
        #expect(run.stdout.contains("run seed 3 (--seed 3 repeats this run)"), "\(run.stdout)")
    }

    @Test func mutantsAreDeterministicAndStayPages() throws {
        let sample = Array(#"{"type":"Listing","id":"l","items":[{"id":"a","price":12.5},{"id":"b"}]}"#.utf8)
        for seed in UInt64(1)...200 {
            var first = SeededRandom(state: seed)
            var second = SeededRandom(state: seed)
            let a = try #require(FloorMutator.mutate(sample, &first))
            let b = try #require(FloorMutator.mutate(sample, &second))
            #expect(a.bytes == b.bytes && a.mutations == b.mutations)
            #expect(!a.mutations.isEmpty)
            #expect(a.bytes.count <= FloorMutator.maxBytes)
        }
    }
}
