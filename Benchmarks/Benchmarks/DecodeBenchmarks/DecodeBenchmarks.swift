// Issue 23: one ProductFeed floor of 1,000 products decoded by the shipped model's declaration (FloorKit's
// `Declared`, straight from the tape) against the Codable path the model had (FloorJSON's TapeDecoder).
// The floor is generated here, deterministically: prices as numbers and as text ("¥1,299.00"), every
// third product with an original price and a jump with an event id. Titles are longer than 15 bytes (one
// heap string each); ids, images and urls are short enough to be stored inline (no allocation). Each
// iteration checks the decode kept all 1,000 products.
// Run: cd Benchmarks && swift package -Xswiftc -enable-testing benchmark --target DecodeBenchmarks
import Benchmark
import FloorKit

let benchmarks: @Sendable () -> Void = {
    let products = 1_000
    let floor: [UInt8] = {
        var items: [String] = []
        for i in 0..<products {
            let price = i % 2 == 0 ? "\(i % 500).9" : #""¥\#(1 + i % 3),\#(100 + i % 900).00""#
            let original = i % 3 == 0 ? #","originalPrice":\#(600 + i % 400)"# : ""
            let jump = i % 3 == 0 ? #"{"url":"app://p/\#(i)","eventId":"feed"}"# : #"{"url":"app://p/\#(i)"}"#
            items.append(
                #"{"id":"p\#(i)","title":"Product number \#(i) 蓝牙耳机","price":\#(price)\#(original),"img":"i/\#(i).jpg","jump":\#(jump)}"#
            )
        }
        let json =
            #"{"type":"ProductFeed","id":"feed","sorts":["综合 Best","销量 Sales"],"items":[\#(items.joined(separator: ","))]}"#
        return Array(json.utf8)
    }()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .microseconds, warmupIterations: 5,
        maxDuration: .seconds(10), maxIterations: 2_000)

    Benchmark("decode ProductFeed 1000 products, declared", configuration: configuration) { benchmark in
        floor.withUnsafeBytes { bytes in
            for _ in benchmark.scaledIterations {
                precondition(FeedDecoding.declared(bytes) == products)
            }
        }
    }
    Benchmark("decode ProductFeed 1000 products, Codable", configuration: configuration) { benchmark in
        floor.withUnsafeBytes { bytes in
            for _ in benchmark.scaledIterations {
                precondition(FeedDecoding.codable(bytes) == products)
            }
        }
    }
}
