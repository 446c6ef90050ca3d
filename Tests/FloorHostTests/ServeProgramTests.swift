import Foundation
import Testing

/// `floorhost serve` runs floorhost-serve from beside floorhost (ServeProgram), so that building floorhost
/// builds no server: the arguments reach it whole, and a floorhost without it says what to build.
@Suite struct ServeProgramTests {
    @Test func serveAndItsHelpAreFloorhostServes() throws {
        let help = try floorhost(["serve", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        // Options only floorhost-serve's `serve` declares: floorhost's own entry for it has none.
        #expect(
            help.stdout.contains("--allow-host") && help.stdout.contains("USAGE: floorhost serve"), "\(help.stdout)")
        let helpServe = try floorhost(["help", "serve"])
        #expect(helpServe.status == 0 && helpServe.stdout.contains("--allow-host"), "\(helpServe.stdout)")
        // floorhost's own help still lists it.
        let list = try floorhost(["--help"])
        #expect(list.stdout.contains("serve ") && list.stdout.contains("Preview the pages under a folder"))
        // A usage error is floorhost-serve's, named as floorhost's.
        let bad = try floorhost(["serve", "--port", "70000", "Examples"])
        #expect(bad.status == 64 && bad.stderr.contains("--port must be 0 to 65535"), "\(bad.status) \(bad.stderr)")
    }

    @Test func aFloorhostWithoutFloorhostServeSaysWhatToBuild() throws {
        let folder = try TemporaryFolder("serve-program")
        let lone = folder.path + "/floorhost"
        // Copied by cp, a process of its own: a copy this process wrote could still be open for writing in a
        // child another test forked meanwhile, and executing it then fails with "Text file busy" (ETXTBSY), as
        // it did once in CI.
        let copy = try run("/bin/cp", [Repo.floorhostBinary, lone])
        try #require(copy.status == 0, "\(copy.stderr)")
        let result = try run(lone, ["serve", "--plugins", folder.path, folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(folder.path + "/floorhost-serve"), "\(result.stderr)")
        #expect(result.stderr.contains("swift build -c release --product floorhost-serve"), "\(result.stderr)")
        // Everything else still runs without it.
        let render = try run(lone, ["--plugins", folder.path, folder.path + "/none.json"])
        #expect(render.status == 2 && !render.stderr.contains("floorhost-serve"), "\(render.stderr)")
    }
}
