// Decodes the end-to-end page's floors with the same models the shipped plugins use (ProductFeed's product,
// the common header and margin) twice: with Foundation's JSONDecoder, as the SDK does today, and with the
// prototype ByteJSONDecoder. Prints the best of REPS (default 5) runs of each and checks both results are
// equal, on the page and on a string full of escapes.   DecoderComparison feed.json
import Foundation

struct Jump: Decodable, Equatable { var url: String; var eventId: String? }
struct FloorHeader: Decodable, Equatable {
    var title: String; var sticky: Bool
    enum CodingKeys: String, CodingKey { case title, sticky }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        sticky = try c.decodeIfPresent(Bool.self, forKey: .sticky) ?? false
    }
}
struct FloorMargin: Decodable, Equatable {
    var top: Double; var bottom: Double
    enum CodingKeys: String, CodingKey { case top, bottom }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        top = try c.decodeIfPresent(Double.self, forKey: .top) ?? 0
        bottom = try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0
    }
}
struct Price: Decodable, Equatable {
    var text: String
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let number = try? c.decode(Double.self) {
            let cents = Int((number * 100).rounded())
            text = "¥\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        } else {
            text = try c.decode(String.self)
        }
    }
}
struct Product: Decodable, Equatable { var id: String; var title: String; var price: Price; var img: String; var jump: Jump? }
struct Floor: Decodable, Equatable {
    var type: String; var id: String; var header: FloorHeader?; var margin: FloorMargin?; var items: [Product]?
    enum CodingKeys: String, CodingKey { case type, id, header, margin, items }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        id = try c.decode(String.self, forKey: .id)
        header = try c.decodeIfPresent(FloorHeader.self, forKey: .header)
        margin = try c.decodeIfPresent(FloorMargin.self, forKey: .margin)
        items = type == "ProductFeed" ? try c.decode([Product].self, forKey: .items) : nil
    }
}
struct PageModel: Decodable, Equatable { var floors: [Floor] }

let data = FileManager.default.contents(atPath: CommandLine.arguments[1])!
func time(_ label: String, _ body: () throws -> PageModel) rethrows -> PageModel {
    var best = Double.infinity
    var result: PageModel!
    for _ in 0..<(ProcessInfo.processInfo.environment["REPS"].flatMap { Int($0) } ?? 5) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        result = try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    print("\(label): best of 5 \(String(format: "%.1f", best)) ms = \(String(format: "%.0f", Double(data.count) / best / 1000)) MB/s")
    return result
}
let a = try time("JSONDecoder") { try JSONDecoder().decode(PageModel.self, from: data) }
let b = try time("ByteJSONDecoder") { try data.withUnsafeBytes { try ByteJSONDecoder().decode(PageModel.self, from: $0) } }
print("same result: \(a == b), products: \(a.floors.compactMap(\.items).map(\.count).reduce(0, +))")
let esc = #"{"floors":[{"type":"ProductFeed","id":"x\"y","items":[{"id":"1","title":"a\\b\n\u00e9\ud83d\ude00 中","price":12.5,"img":"i","jump":null}]}]}"#
let ed = Data(esc.utf8)
let ea = try JSONDecoder().decode(PageModel.self, from: ed)
let eb = try ed.withUnsafeBytes { try ByteJSONDecoder().decode(PageModel.self, from: $0) }
print("escapes same: \(ea == eb) \(eb.floors[0].items![0].title.debugDescription)")
