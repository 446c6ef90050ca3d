import FloorCore
import FloorLayout
import FloorSession
import Foundation
import Testing

@testable import FloorRender

/// TextOutput holds a line equal to a recent one as a reference to it, and writes out exactly the bytes
/// appended, in order, whatever it holds.
struct TextOutputTests {
    /// The lines appended one by one, each ended as TextOutput's writers end them.
    static func held(_ lines: [String]) -> TextOutput {
        var out = TextOutput()
        for line in lines {
            let start = out.bytes.count
            out.bytes.append(contentsOf: Array((line + "\n").utf8))
            out.endLine(from: start)
        }
        return out
    }

    static let frame = "  │                 │                 │  " + String(repeating: "─", count: 20)
    static let rule = String(repeating: "─", count: 72)

    @Test func aRepeatedLineIsHeldOnce() {
        let lines = [Self.frame, "a title 1", Self.rule, Self.frame, "a title 2", Self.frame, Self.rule, Self.rule]
        let out = Self.held(lines)
        let whole = Array(lines.map { $0 + "\n" }.joined().utf8)
        #expect(out.expanded == whole)
        #expect(out.count == whole.count)
        let frame = Self.frame.utf8.count + 1
        let rule = Self.rule.utf8.count + 1
        #expect(out.bytes.count == whole.count - 2 * frame - 2 * rule)
    }

    @Test func shortLinesAndNearMissesAreHeldAsTheyAre() {
        let short = String(repeating: "x", count: TextOutput.shortestRepeated - 2)
        var lines = [short, short, short]
        // Equal lengths, one byte apart: at the start, in the middle, at the end; and one byte longer.
        let line = String(repeating: "y", count: 40)
        for change in [0, 20, 39] {
            var bytes = Array(line.utf8)
            bytes[change] = UInt8(ascii: "z")
            lines += [line, String(decoding: bytes, as: UTF8.self)]
        }
        lines.append(line + "y")
        let out = Self.held(lines)
        let whole = Array(lines.map { $0 + "\n" }.joined().utf8)
        #expect(out.expanded == whole)
        // Only the three later copies of `line` itself are references.
        #expect(out.bytes.count == whole.count - 2 * (line.utf8.count + 1))
    }

    /// Bytes appended without ending a line (a title, blank lines) stay where they were put, between lines
    /// held as references.
    @Test func bytesBetweenLinesKeepTheirPlace() {
        var out = TextOutput()
        for i in 0..<50 {
            out.bytes.append(contentsOf: Array("\n\n# \(i)\n".utf8))
            let start = out.bytes.count
            out.bytes.append(contentsOf: Array((Self.rule + "\n").utf8))
            out.endLine(from: start)
        }
        let whole = Array((0..<50).map { "\n\n# \($0)\n" + Self.rule + "\n" }.joined().utf8)
        #expect(out.expanded == whole)
        #expect(out.bytes.count < whole.count / 2)
    }

    /// A card's last lines (its bottom border, a blank line, the rule under it), repeated: each later card's are
    /// one reference, the blank line included though it is too short to be referenced on its own.
    @Test func linesFollowingWhatTheyFollowedBeforeJoinItsReference() {
        var out = TextOutput()
        var whole: [UInt8] = []
        for i in 0..<20 {
            for line in ["title \(i)\n", Self.frame + "\n", "\n\n", Self.rule + "\n"] {
                let start = out.bytes.count
                out.bytes.append(contentsOf: Array(line.utf8))
                out.endLine(from: start)
                whole += Array(line.utf8)
            }
        }
        #expect(out.expanded == whole)
        #expect(out.references == 19)
        // A short line after a line kept (not a reference) is kept.
        let kept = Self.held(["a title", "\n", "another title"])
        #expect(kept.references == 0 && kept.bytes.count == kept.count)
    }

    /// The text preview of a page of one ProductFeed floor of `items`, drawn by the shipped plugin, as held.
    static func feedPreview(_ items: [[String: Any]]) throws -> TextOutput {
        let folder = try TemporaryFolder("text-output")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let json = try JSONSerialization.data(withJSONObject: [
            "floors": [["type": "ProductFeed", "id": "feed", "items": items]]
        ])
        let file = try folder.write("feed.json", String(decoding: json, as: UTF8.self))
        let adapter = try host.layout(page: file, width: 375, dispatch: .typed)
        var out = TextOutput()
        TextRenderer.write(adapter, options: TextRenderer.Options(), to: &out)
        return out
    }

    /// A long feed: its cards' repeated lines (the bottom border, the rule under it) are held once, so the feed is
    /// held in well under its bytes.
    @Test func aLongFeedsRepeatedLinesAreHeldOnce() throws {
        let out = try Self.feedPreview(
            (0..<300).map { i in
                [
                    "id": "p\(i)", "title": "Product \(i)" + String(repeating: " word", count: i % 9),
                    "price": 10 + i, "img": "https://img.example.com/\(i).jpg",
                ]
            })
        #expect(out.expanded.count { $0 == 0x0A } > 300 * 9, "a card is 9 lines or more")
        #expect(out.references >= 299, "a reference a card after the first")
        #expect(
            Double(out.bytes.count) < 0.6 * Double(out.count), "held \(out.bytes.count) bytes of \(out.count)")
    }

    /// A feed of one card over and over: every long line after the first card's is held as a reference, those of
    /// frames and rules alone (written from their shape, TextGrid.FrameShape) and the others alike.
    @Test func aFeedOfOneCardIsHeldAsOneCard() throws {
        let out = try Self.feedPreview(
            (0..<300).map { i in
                ["id": "p\(i)", "title": "The same product", "price": 10, "img": "https://img.example.com/same.jpg"]
            })
        #expect(out.count > 300 * 400, "a card is 400 bytes or more")
        // What is held is one card and the short lines (under TextOutput.shortestRepeated), which are copied.
        #expect(out.bytes.count < out.count / 4, "held \(out.bytes.count) bytes of \(out.count)")
    }

    /// More pieces than one writev takes, written to a file through HostOutput: the file holds the bytes as
    /// expanded.
    @Test func writtenOutItIsTheBytesInOrder() throws {
        var lines: [String] = []
        for i in 0..<3 * HostOutput.piecesAWrite {
            lines += ["card \(i)", Self.frame, Self.rule]
        }
        let out = Self.held(lines)
        let whole = Array(lines.map { $0 + "\n" }.joined().utf8)
        #expect(out.bytes.count < whole.count / 4)
        let folder = try TemporaryFolder("text-output")
        let path = folder.file("written.txt")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let file = HostOutput(claiming: fd, name: "the test file")
        close(fd)
        try out.write(to: file)
        close(file.descriptor)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == whole)
    }

    /// A write that fails says so, naming what it wrote to.
    @Test func aFailedWriteIsTold() {
        let out = Self.held([Self.rule, Self.rule])
        let closed = HostOutput(claiming: -1, name: "the closed output")
        #expect {
            try out.write(to: closed)
        } throws: { error in
            (error as? HostOutput.Failure)?.message.contains("cannot write the closed output") == true
        }
    }
}
