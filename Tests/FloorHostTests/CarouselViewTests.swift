import Foundation
import Testing

/// `floorhost view` pages a carousel with the left and right keys, in a real terminal (tmux): the banner,
/// its dots and "i/n" change, the selection follows the banner shown, and Enter taps that banner.
@Suite(.serialized)
struct CarouselViewTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("carouselview")
        plugins = try folder.installShippedPlugins()
        for file in ["home.json", "home-2.json", "home-3.json"] {
            try folder.write(file, try String(contentsOfFile: Repo.path("Examples/" + file), encoding: .utf8))
        }
    }

    func start() throws -> Tmux {
        let command =
            "cd \(folder.path) && FLOORKIT_PLUGIN_CACHE=\(folder.file("scan-cache.json")) \(Repo.floorhostBinary) view --plugins \(plugins) home.json; echo VIEW-EXITED $?; sleep 600"
        return try Tmux(command, columns: 75, lines: 30)
    }

    @Test func leftAndRightPageTheCarouselAndEnterTapsTheBannerShown() throws {
        let tmux = try start()
        let first = try tmux.waitFor("home.json · ")
        #expect(first.contains { $0.contains("● ○ ○ ○") && $0.hasSuffix("1/4") }, "\(first.joined(separator: "\n"))")
        try tmux.send("Right")
        let second = try tmux.waitFor("page 2 of 4 in row 0:0")
        #expect(second.contains { $0.contains("○ ● ○ ○") && $0.hasSuffix("2/4") }, "\(second.joined(separator: "\n"))")
        #expect(second.contains { $0.contains("[fresh]") }, "banner 2's image")
        try tmux.send("Left", "Left")
        let last = try tmux.waitFor("page 4 of 4 in row 0:0")
        #expect(last.contains { $0.contains("○ ○ ○ ●") && $0.hasSuffix("4/4") }, "\(last.joined(separator: "\n"))")
        try tmux.send("Enter")
        try tmux.waitFor("tap 0:0:3 → app://activity/")
        let tapped = try tmux.screen()
        #expect(tapped.contains { $0.contains("bannerId=b4") }, "\(tapped.joined(separator: "\n"))")
        // The highlight is the banner's frame: its lines in reverse video, not the dots' line under it.
        let lines = try tmux.screen(escapes: true)
        #expect(lines.contains { $0.contains("\u{1b}[7m") }, "the selected banner is highlighted")
        #expect(!lines.contains { $0.contains("\u{1b}[7m") && $0.contains("○ ○ ○ ●") }, "the dots are not")
    }
}
