import FloorRender
import FloorText
import Foundation
import HostContract
import Testing

extension BrowserRuns {
    /// ABI 1.5's promise that the preview draws what the host measured (docs/ABI.md, "Text layout"), checked in
    /// real chromium against a running `floorhost serve`'s font route: 2,000 generated strings (TextSamples)
    /// at three widths in every text style, at device scale 1 and 2. For each line the host made, the width
    /// chromium measures for its text is within 1 px of the host's for at least 99.5 % of lines; and chromium's
    /// own wrapping of the whole text in a box of the host's width breaks where the host did for at least
    /// 99.5 % of the strings (Tests/Browser/text_agreement.py measures). Runs where BrowserTests runs.
    @Suite struct TextAgreementTests {
        static let strings = 2_000
        static let widths = [120.0, 200, 343]

        /// The host's layouts, with each line's UTF-16 offsets in its text (what a DOM range takes).
        static func cases() -> [[String: Any]] {
            var samples = TextSamples(seed: 0x5EED_7E47)
            var cases: [[String: Any]] = []
            for i in 0..<strings {
                let text = samples.string(i)
                let units = Array(text.utf16)
                for type in TypeStyle.all {
                    for width in widths {
                        let block = HostTextLayout.block(text, style: type.number, maxWidth: width, maxLines: 0)
                        var position = 0
                        var lines: [[String: Any]] = []
                        for line in block.lines {
                            let lineUnits = Array(line.text.utf16)
                            while position < units.count
                                && !units[position...].starts(with: lineUnits)
                            {
                                position += 1
                            }
                            lines.append([
                                "text": line.text, "width": line.width, "start": position,
                                "end": position + lineUnits.count,
                            ])
                            position += lineUnits.count
                        }
                        cases.append([
                            "text": text, "classes": "\(type.name) w\(type.weight.rawValue)", "width": width,
                            "lineHeight": type.lineHeight, "lines": lines,
                        ])
                    }
                }
            }
            return cases
        }

        /// The server's start and the browser runs block for seconds: off the cooperative pool (offThePool,
        /// CarouselBrowserTests says why).
        @Test func chromiumMeasuresAndBreaksTheHostsLines() async throws {
            try #require(browserAvailable, "chromium, chromedriver or selenium is missing: run Scripts/setup --browser")
            let fixture = try ServeFixture()
            let server = try await offThePool { try RunningServer(serving: fixture) }
            defer { server.stop() }
            let cases = Self.cases()
            #expect(cases.count == Self.strings * Self.widths.count * TypeStyle.all.count)
            let wrapping = cases.filter { ($0["lines"] as! [[String: Any]]).count > 1 }.count
            #expect(wrapping * 2 > cases.count, "most strings wrap: \(wrapping) of \(cases.count)")
            // The preview's own text rules, with the faces from the server's font route.
            let rules = String(HTMLRenderer.stylesheet.dropFirst(HTMLRenderer.fontFaces(route: nil).count))
            let css = HTMLRenderer.fontFaces(route: "/fonts/") + rules
            let input = fixture.folder + "/text-cases.json"
            try JSONSerialization.data(withJSONObject: ["page": server.url, "css": css, "cases": cases]).write(
                to: URL(fileURLWithPath: input))
            for scale in ["1", "2"] {
                let output = fixture.folder + "/text-agreement-\(scale).json"
                let result = try await offThePool {
                    try runTool(
                        "/usr/bin/env",
                        [
                            "python3", ServeRepo.root + "/Tests/Browser/text_agreement.py", "--cases", input, "--scale",
                            scale, "--out", output,
                        ])
                }
                print(result.output)
                try #require(result.status == 0, "\(result.output)")
                let summary = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
                        as? [String: Any])
                let lines = try #require(summary["lines"] as? Int)
                let within = try #require(summary["linesWithin1px"] as? Int)
                let compared = try #require(summary["cases"] as? Int)
                let agreeing = try #require(summary["casesAgreeing"] as? Int)
                // What a reader of the log wants next to the counts: the first few disagreements, if any.
                for case let disagreement as [String: Any] in (summary["disagreeingCases"] as? [Any] ?? []).prefix(3) {
                    print("scale \(scale): breaks differ: \(disagreement)")
                }
                #expect(compared == cases.count)
                #expect(
                    Double(within) >= 0.995 * Double(lines),
                    "scale \(scale): \(within) of \(lines) lines within 1 px; worst: \(summary["worstLines"] ?? [])")
                #expect(
                    Double(agreeing) >= 0.995 * Double(compared),
                    "scale \(scale): \(agreeing) of \(compared) break the same; first: \(summary["disagreeingCases"] ?? [])"
                )
            }
        }
    }
}
