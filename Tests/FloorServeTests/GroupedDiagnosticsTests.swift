import Foundation
import Testing

@testable import FloorServe

/// One problem at many places is one diagnostic with its count and first paths (Diagnostic.grouped) in the
/// tab's Diagnostics panel; different problems stay apart.
struct GroupedDiagnosticsTests {
    static func diagnostics(_ fixture: ServeFixture, page: String) throws -> (bytes: Int, list: [[String: Any]]) {
        let id = fixture.preview.open(page, phone: .standard)
        let answer = try #require(fixture.preview.view(id, offset: 0, knownVersion: -1))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any])
        return (answer.count, object["diagnostics"] as? [[String: Any]] ?? [])
    }

    /// 50,000 `"subtitle"` keys in one floor: 49,999 duplicates, one entry of a few hundred bytes (before grouping,
    /// an 8 MB answer of 49,999 entries).
    @Test func fiftyThousandDuplicateKeysAreOneEntryWithTheirCount() throws {
        let fixture = try ServeFixture()
        let keys = (0..<50_000).map { #""subtitle":"\#($0)""# }.joined(separator: ",")
        let page = try fixture.write(
            "keys.json", #"{"floors":[{"type":"Title","id":"t","title":"重复 Repeated","# + keys + "}]}")
        let (bytes, list) = try Self.diagnostics(fixture, page: page)
        #expect(list.count == 1, "\(list.prefix(4))")
        let group = try #require(list.first)
        #expect(group["count"] as? Int == 49_999)
        #expect(group["paths"] as? [String] == ["floors[0].subtitle", "floors[0].subtitle", "floors[0].subtitle"])
        let message = try #require(group["message"] as? String)
        #expect(
            message.contains(
                "duplicate key 'subtitle'; the last value is used (ignored); 49,999 times in all, the first at floors[0].subtitle 1:"
            ), "\(message)")
        #expect(bytes < 4_096, "the answer is \(bytes) B")
        print("view answer, 50,000 repeated keys: \(bytes) B, one diagnostic of \(group["count"] ?? 0)")
    }

    @Test func differentProblemsStayApart() throws {
        let fixture = try ServeFixture()
        let page = try fixture.write(
            "three.json",
            #"{"floors":[{"type":"Title","id":"t","title":"a","title":"b","id":"t","subtitle":"c","subtitle":"d"}]}"#)
        let (_, list) = try Self.diagnostics(fixture, page: page)
        #expect(list.count == 3, "\(list)")
        #expect(list.allSatisfy { $0["count"] == nil && $0["paths"] == nil })
        #expect(
            list.compactMap { $0["path"] as? String } == ["floors[0].title", "floors[0].id", "floors[0].subtitle"])
    }

    /// Up to `Diagnostic.groupedAbove` (10) of one kind are listed one by one; 11 are one entry.
    @Test func tenOfOneKindStayApartElevenAreGrouped() throws {
        let fixture = try ServeFixture()
        func page(_ n: Int) -> String {
            let keys = (0...n).map { #""subtitle":"\#($0)""# }.joined(separator: ",")
            return #"{"floors":[{"type":"Title","id":"t","title":"a","# + keys + "}]}"
        }
        let file = try fixture.write("same.json", page(10))
        #expect(try Self.diagnostics(fixture, page: file).list.count == 10)
        try fixture.write("same.json", page(11))
        let list = try Self.diagnostics(fixture, page: file).list
        #expect(list.count == 1 && list.first?["count"] as? Int == 11, "\(list)")
    }
}
