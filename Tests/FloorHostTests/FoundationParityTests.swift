import Foundation
import Testing

@testable import FloorCore
@testable import FloorSession
@testable import HostContract

/// floorhost links FoundationEssentials only (ARCHITECTURE.md, "Two executables"); the few Foundation
/// functions it used are FloorCore's own helpers now. Each is compared here with the Foundation function it
/// replaces, on the inputs where the two could differ, so that every output keeps its bytes.
@Suite struct FoundationParityTests {
    /// What JSONSerialization wrote for `object` with `options` (sorted keys always, as every caller asked).
    private func serialization(_ object: Any, _ options: JSONSerialization.WritingOptions = []) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: options.union(.sortedKeys)),
            as: UTF8.self)
    }

    @Test func jsonRoundTripsAsJSONSerializationDid() throws {
        var documents = [
            #"{"b":1,"a":[true,false,null],"c":{"x/y":"a/b","n":-0.5,"e":1e2,"big":12345678901234567890}}"#,
            #"{"a10":1,"a9":2,"B":3,"a":4,"_":5,"A":6,"a01":7,"a1":8,"z":[],"y":{}}"#,
            #"{"s":"tab\t nl\n cr\r bs\b ff\f nul\u0000 us\u001f del\u007f c1\u0085 bidi\u202e emoji😀 quote\" back\\"}"#,
            #"[1.0,2.5,-3,0,1e-7,123456789.125,3.14159,1E300]"#,
        ]
        for page in ["Examples/home.json", "Examples/home-2.json", "Examples/home-3.json"] {
            documents.append(try String(contentsOfFile: Repo.path(page), encoding: .utf8))
        }
        for document in documents {
            let object = try JSONSerialization.jsonObject(with: Data(document.utf8), options: .fragmentsAllowed)
            let value = try #require(JSONValue.parse(Array(document.utf8)), "\(document.prefix(80))")
            #expect(value.serialized() == (try serialization(object)))
            #expect(value.serialized(.withoutEscapingSlashes) == (try serialization(object, .withoutEscapingSlashes)))
            #expect(
                value.serialized([.prettyPrinted, .withoutEscapingSlashes])
                    == (try serialization(object, [.prettyPrinted, .withoutEscapingSlashes])))
        }
    }

    /// ASCII keys in JSONSerialization's sorted order (ICU's collation, numeric, case-insensitive, forced).
    @Test func keysSortAsJSONSerializationSortedThem() throws {
        let alphabet = Array("aAbBzZ019_-.$ ~/:@xX")
        var state: UInt64 = 23
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<500 {
            var members: [String: JSONValue] = [:]
            for _ in 0..<6 { members[String((0...next(5)).map { _ in alphabet[next(alphabet.count)] })] = .int(1) }
            let object = Dictionary(uniqueKeysWithValues: members.keys.map { ($0, 1) })
            #expect(JSONValue.object(members).serialized() == (try serialization(object)))
        }
    }

    @Test func jsonRefusesWhatIsNotOneDocument() {
        for text in ["", "{", "[1,]", "{\"a\"}", "01", "1.", "\"\\x\"", "tru", "{} {}", "\"\u{1}\"", "[\"\\ud800\"]"] {
            #expect(JSONValue.parse(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func quotedStringsAsJSONSerializationWroteThem() throws {
        let samples = [
            "plain", "a/b", "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}\u{1f} \u{7f}", "\u{85}\u{202e}ü😀\"\\",
        ]
        for text in samples {
            for slashes in [true, false] {
                let array = try serialization([text], slashes ? [] : .withoutEscapingSlashes)
                #expect(
                    SerializedJSONString.quoted(text, escapingSlashes: slashes) == String(array.dropFirst().dropLast()))
            }
        }
    }

    @Test func pathsAsNSStringSpelledThem() throws {
        let paths = [
            "", "/", "//", "a", "a/", "/a", "/a/", "/a/b", "a/b/", "a//b///c", "/a/b/../c", "./x", "../x", "..",
        ]
        for path in paths {
            let ns = path as NSString
            #expect(PathText.lastComponent(of: path) == ns.lastPathComponent, "\(path)")
            // Foundation stopped the process (a failed precondition) on a single character other than "/".
            if !["a", "a/"].contains(path) {
                #expect(PathText.deletingLastComponent(of: path) == ns.deletingLastPathComponent, "\(path)")
            }
            for component in ["", "x", "x/y", "/x"] {
                #expect(
                    PathText.appending(component, to: path) == ns.appendingPathComponent(component),
                    "\(path) + \(component)")
            }
        }
        #expect(PathText.deletingLastComponent(of: "a") == "")
        #expect(PathText.deletingLastComponent(of: "a/") == "")
        #expect(PathText.homeDirectory == NSHomeDirectory())
    }

    @Test func standardizedPathsFollowLinksAsNSStringDid() throws {
        let folder = try TemporaryFolder("path-text")
        try FileManager.default.createDirectory(atPath: folder.file("real/inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: "real")
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("absolute"), withDestinationPath: folder.file("real/inner"))
        let paths = [
            folder.file("link/inner/../page.json"), folder.file("./real//inner/./next.json"),
            folder.file("absolute/../x.json"),
            folder.file("missing/../../y.json"), folder.file("link/"), folder.file("absolute/x.json"), "/private/tmp",
            "relative/../a.json", "a/./b//c.json", "~/x.json", "/", "/..", "~",
        ]
        for path in paths {
            #expect(PathText.standardized(path) == (path as NSString).standardizingPath, "\(path)")
        }
    }

    @Test func printfFormatsAsStringFormatDid() {
        for value in [0.0, 1.0, 1.5, 0.25, 30.0, 1e-5, 123456789.0, 2.0 / 3.0] {
            for format in ["%g", "%.1f", "%.2f", "hung (no answer for %g s)"] {
                #expect(PrintfFormat.string(format, value) == String(format: format, value), "\(format) \(value)")
            }
        }
        for value: UInt32 in [0, 0x1f, 0x7f, 0x85, 0x202e] {
            #expect(PrintfFormat.string("\\u%04x", value) == String(format: "\\u%04x", value))
            #expect(PrintfFormat.string("\\u%04X", value) == String(format: "\\u%04X", value))
        }
    }

    @Test func trimmingAndPaddingAsFoundationDid() {
        let texts = ["", " ", " a b ", "\t\u{a0}x\u{2003}", "\n x \r\n", "\u{85}y\u{2028}", "plain", "\u{200b}z"]
        for text in texts {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "x\(scalar)"
            #expect(
                text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "U+\(String(value, radix: 16))")
        }
        for text in ["", "ok", "exactly13char", "much longer than thirteen", "ü😀x"] {
            for width in [0, 3, 13, 20] {
                #expect(text.padded(toWidth: width) == text.padding(toLength: width, withPad: " ", startingAt: 0))
            }
        }
    }

    @Test func httpDatesAsDateFormatterReadThem() throws {
        let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
        let dates = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Fri, 27 Nov 2026 10:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT",
        ]
        for text in dates {
            let expected = formats.lazy.compactMap { format -> Date? in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = format
                return formatter.date(from: text)
            }.first
            #expect(HTTPDate.parse(text) == expected, "\(text)")
            #expect(HTTPDate.parse(text) != nil, "\(text)")
        }
        for text in ["", "soon", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37 GMT trailing"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
        #expect(RetryAfter.seconds("Thu, 01 Jan 1970 00:01:40 GMT", now: Date(timeIntervalSince1970: 40)) == 60)
    }

    @Test func hostThreadsRunNamedAndApart() throws {
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var name = ""
        nonisolated(unsafe) var current = false
        let thread = HostThread.start(name: "floorhost test thread") {
            name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            started.signal()
        }
        #expect(started.wait(timeout: .now() + 30) == .success)
        #expect(name == "floorhost test \n", "the kernel keeps 15 bytes of the name")
        current = thread.isCurrent
        #expect(!current)
    }

    @Test func hostLockKeepsTwoThreadsApart() {
        let lock = HostLock()
        nonisolated(unsafe) var count = 0
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            HostThread.start(name: "lock test") {
                for _ in 0..<100_000 { lock.withLock { count += 1 } }
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(count == 200_000)
    }
}
