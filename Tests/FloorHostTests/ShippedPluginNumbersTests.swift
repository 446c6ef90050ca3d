import FloorSession
import Foundation
import HostContract
import Testing

/// Every shipped plugin refuses a JSON number it cannot use, with the number's path, and never traps:
/// in-process here, so a trap in a decoder would end the test run.
struct ShippedPluginNumbersTests {
    let folder: TemporaryFolder
    let host: FloorHost

    init() throws {
        folder = try TemporaryFolder("numbers")
        host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
    }

    /// Lays out a page of `floors` (JSON objects) and returns its decode diagnostics.
    private func diagnostics(_ floors: [String]) throws -> [String] {
        let page = try folder.write("page.json", #"{"floors":[\#(floors.joined(separator: ","))]}"#)
        let adapter = try host.layout(page: page, width: 375)
        return adapter.page.diagnostics.map { pageMessage($0.message, page: page) }
    }

    private static func product(price: String) -> String {
        #"{"type":"ProductFeed","id":"feed","items":[{"id":"p","title":"T","price":\#(price),"img":"i"}]}"#
    }

    @Test(arguments: [
        "1e308", "9223372036854775808", "1.2e29", "-1", "-0.5", "1e12001", "1000000000000.01", "92233720368547758.07",
    ])
    func aProductFeedPriceNoShopCouldChargeIsRefusedWithItsPath(price: String) throws {
        let found = try diagnostics([#"{"type":"Title","id":"t","title":"Still here"}"#, Self.product(price: price)])
        #expect(found.count == 1, "\(found)")
        let message = try #require(found.first)
        #expect(message.hasPrefix("floors[1].items[0].price (floor 'feed'): "), "\(message)")
        #expect(
            message.contains("expected a number from 0 to 1000000000000")
                || message.contains("out of range"), "\(message)")
    }

    @Test(arguments: [
        ("0", "¥0.00"), ("199", "¥199.00"), ("59.9", "¥59.90"), ("1e12", "¥1000000000000.00"), (#""¥5""#, "¥5.00"),
        (#""199""#, "¥199.00"), (#""¥1,299.5""#, "¥1299.50"),
    ])
    func aUsablePriceIsShown(price: String, shown: String) throws {
        let page = try folder.write("ok.json", #"{"floors":[\#(Self.product(price: price))]}"#)
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.page.diagnostics.isEmpty)
        let draws = RecordingCanvas.record(width: 375, height: 108) { adapter.drawCell(row: 0, into: $0) }
        // The price is a headline text block (ABI 1.5 text styles).
        #expect(draws.contains { if case .textBlock(shown, _, _, _, _, _) = $0 { true } else { false } }, "\(draws)")
    }

    @Test(arguments: ["1e308", "-3", "2.5", "9223372036854775808", "0", "11", "1e400", "-9223372036854775809", #""4""#])
    func anIconGridColumnCountItCannotUseIsRefusedWithItsPath(columns: String) throws {
        let grid = #"{"type":"IconGrid","id":"grid","columns":\#(columns),"items":[{"id":"i","img":"x","title":"X"}]}"#
        let found = try diagnostics([grid])
        #expect(found.count == 1 && found[0].hasPrefix("floors[0].columns (floor 'grid'): "), "\(found)")
    }

    /// Numbers in string and other fields of every shipped floor are refused, not converted.
    @Test(arguments: [
        #"{"type":"Title","id":"t","title":1e400}"#, #"{"type":"Focus","id":"f","items":[{"id":"b","img":1e308}]}"#,
        #"{"type":"Title","id":"t","title":"T","margin":{"top":1e999}}"#,
    ])
    func anyOtherUnusableNumberIsRefusedWithAPath(floor: String) throws {
        let found = try diagnostics([floor])
        #expect(found.count == 1 && found[0].hasPrefix("floors[0]."), "\(found)")
    }
}
