import FloorSession
import Foundation
import Testing

/// The plugin scan's deadline is for a call that stops answering: a plugin whose sample has many quick
/// rows takes longer than the deadline in all and is still safe.
struct ScanProgressTests {
    @Test func manyQuickRowsAreNotAHang() throws {
        let folder = try TemporaryFolder("scan-progress")
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("contract.c", to: plugins + "/libMany.so", defines: [#"SAMPLE_ROWS="60000""#])
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"shown"}]}"#)
        let result = try floorhost([
            "--plugins", plugins, "--plugin-cache", folder.file("cache.json"),
            "--plugin-scan-timeout", "1.5", page,
        ])
        #expect(!result.stderr.contains("hung"), "\(result.stderr)")
        #expect(result.stdout.contains("shown"))
        let cache = try String(contentsOfFile: folder.file("cache.json"), encoding: .utf8)
        #expect(cache.contains("safe"), "\(cache)")
    }
}
