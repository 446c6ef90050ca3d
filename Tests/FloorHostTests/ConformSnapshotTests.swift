import FloorConform
import FloorSession
import Foundation
import Testing

/// `floorhost conform --snapshots DIR --record|--verify`: each sample's drawing at 320, 375 and 414
/// points, kept as readable text; verify passes on an unchanged drawing and shows a diff of a changed one.
struct ConformSnapshotTests {
    @Test func recordThenVerifyCleanThenAChangedDrawingShowsADiff() throws {
        let folder = try TemporaryFolder("conform-snapshots")
        let library = folder.file("libBadge.so")
        try compileCPlugin(to: library)
        let snapshots = folder.file("Snapshots")

        let recorded = try floorhost(["conform", library, "--include", "samples", "--snapshots", snapshots, "--record"])
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        let file = snapshots + "/com.floorkit.test.badge/Badge.txt"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("# Badge: the canvas calls of each row at widths 320, 375 and 414 points\n"))
        #expect(
            text.contains(
                "\nwidth 375\n  row 0 BadgeRow height 36\n    box x 0 y 0 w 375 h 36\n    text x 8 y 12 max_width 359 bold \"C plugin\"\n"
            ), "\(text)")
        #expect(recorded.stdout.contains("recorded \(file)"), "\(recorded.stdout)")

        let clean = try floorhost(["conform", library, "--snapshots", snapshots, "--verify", "--format", "json"])
        #expect(clean.status == 0, "\(clean.stdout)")
        let checks = try #require(
            (try jsonObject(clean.stdout)["plugins"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        #expect(checks.last?["check"] as? String == "snapshots" && checks.last?["verdict"] as? String == "pass")
        #expect(checks.count == ConformanceCheck.all.count + 1)

        // The same plugin drawing its frame 10 points wider: the diff shows exactly those lines.
        try compileCPlugin(to: library, defines: ["DRAW_OUTSIDE"])
        let changed = try floorhost(["conform", library, "--include", "samples", "--snapshots", snapshots, "--verify"])
        #expect(changed.status == 1)
        let lines = changed.stdout.split(separator: "\n").map(String.init)
        let failure = try #require(lines.first { $0.hasPrefix("  FAIL  snapshots ") }, "\(changed.stdout)")
        #expect(failure.contains("Badge drew differently (6 lines changed)"), "\(failure)")
        #expect(failure.hasSuffix("record again with --snapshots \(snapshots) --record"))
        for width in [320, 375, 414] {
            #expect(lines.contains("        -    box x 0 y 0 w \(width) h 36"), "\(changed.stdout)")
            #expect(lines.contains("        +    box x 0 y 0 w \(width + 10) h 36"), "\(changed.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("        @@ -3,") }, "\(changed.stdout)")
        // Untouched: verify never writes.
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
    }

    @Test func aSampleWithoutASnapshotFailsVerify() throws {
        let folder = try TemporaryFolder("conform-snapshots-missing")
        let library = folder.file("libBadge.so")
        try compileCPlugin(to: library)
        let result = try floorhost([
            "conform", library, "--include", "samples", "--snapshots", folder.file("none"), "--verify",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Badge has no snapshot (\(folder.file("none"))/com.floorkit.test.badge/Badge.txt); record them with --snapshots \(folder.file("none")) --record"
            ), "\(result.stdout)")
    }

    @Test func theDiffIsUnified() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n"
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\n"
        // Changes 4 unchanged lines apart (2 x the context) share a hunk.
        #expect(
            LineDiff.unified(old: old, new: new) == [
                "@@ -2,8 +2,9 @@", " b", " c", "-d", "+D", " e", " f", " g", " h", "+i", " ",
            ])
        let far = "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
        let changed = "1\nX\n3\n4\n5\n6\n7\n8\nY\n"
        #expect(
            LineDiff.unified(old: far, new: changed) == [
                "@@ -1,4 +1,4 @@", " 1", "-2", "+X", " 3", " 4", "@@ -7,4 +7,4 @@", " 7", " 8", "-9", "+Y", " ",
            ])
    }
}
