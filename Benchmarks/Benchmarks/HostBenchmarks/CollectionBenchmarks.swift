// Collection floors (issue 20), in-process, on the Tiles fixture plugin (Tests/Fixtures/CPlugins/tiles.c,
// compiled -O2 by Scripts/bench) laid out as a two-column waterfall (inputs from make_page.py tiles):
//   "collection layout 100000 items cached"       Adapter.relayout(): every item placed again into its
//                                                   column from the height cache, no plugin called. <= 50 ms.
//   "collection append 20 items to N, caches evicted"
//                                                   Adapter.append of a next page extending the waterfall
//                                                   with 20 tiles, after 64 MB swept through the caches (as
//                                                   "append 20 rows" does); also the time of the 20 height
//                                                   calls alone, so the host's own share is the difference.
//                                                   <= 50 us beyond the height calculator.
//   "collection append 20 items paired, caches evicted"
//                                                   both sizes appended back to back in each iteration; the
//                                                   100,000 / 1,000 ratio x 100. <= 2x.
//   "collection visible items 100000" / "... 1000" 1,000 lookups of the rows on screen at spread offsets
//                                                   (Adapter.visibleRows); per lookup. <= 5 us, O(log n).
//   "collection memory 100000 items"               malloc'd bytes the adapter holds for the items, per item
//                                                   (mallinfo2 after layout minus after decode). <= 64 bytes.
import Benchmark
import CBenchSupport
import Foundation

@testable import FloorLayout
@testable import FloorRuntime

/// A registry holding only the Tiles plugin.
func tilesRegistry() -> Registry {
    let registry = Registry()
    let problems = PluginLoader.load(Inputs.path("tiles-plugin/libTilesFloor.so"), into: registry)
    precondition(problems.isEmpty, "the Tiles plugin did not load: \(problems.map(\.message))")
    return registry
}

nonisolated(unsafe) var tilesShared: Registry!
nonisolated(unsafe) var tilesLarge: Adapter!
nonisolated(unsafe) var tilesLargeFirst = false

/// The time of the height calls of `rows` alone, as Adapter.measure makes them (the typed path).
func heightCallNanoseconds(_ adapter: Adapter, rows: Range<Int>) -> Int {
    let start = DispatchTime.now().uptimeNanoseconds
    var sum = 0.0
    for r in rows {
        let row = adapter.rows[r]
        let entry = adapter.registry.dispatch[Int(row.type)]
        sum += entry.height(
            entry.context, adapter.models[Int(row.section)], UInt64(row.index), adapter.itemWidths[Int(row.section)])
    }
    let end = DispatchTime.now().uptimeNanoseconds
    blackHole(sum)
    return Int(end - start)
}

func collectionBenchmarks() {
    let setUp: Benchmark.BenchmarkSetupHook = {
        if tilesShared == nil { tilesShared = tilesRegistry() }
    }

    Benchmark(
        "collection layout 100000 items cached", configuration: timeConfiguration(maxIterations: 50, seconds: 5),
        closure: { benchmark in
            let adapter = tilesLarge!
            let total = adapter.totalHeight
            benchmark.startMeasurement()
            adapter.relayout()
            benchmark.stopMeasurement()
            precondition(adapter.totalHeight == total)
        },
        setup: {
            try await setUp()
            if tilesLarge == nil {
                tilesLarge = Adapter(
                    page: decode("tiles-100k.json", registry: tilesShared), registry: tilesShared, width: layoutWidth)
                precondition(tilesLarge.collections.count == 1 && tilesLarge.rowCount == 100_000)
            }
        })

    let heights = BenchmarkMetric.custom("height calls ns", useScalingFactor: false)
    for (label, page) in [("100000", "tiles-100k.json"), ("1000", "tiles-1k.json")] {
        Benchmark(
            "collection append 20 items to \(label), caches evicted",
            configuration: .init(
                metrics: [.wallClock, heights], timeUnits: .nanoseconds, units: [heights: .count],
                warmupIterations: 1, maxDuration: .seconds(10), maxIterations: label == "1000" ? 200 : 40),
            closure: { benchmark in
                let adapter = Adapter(
                    page: decode(page, registry: tilesShared), registry: tilesShared, width: layoutWidth)
                evictCaches()
                let next = decode("tiles-next-20.json", registry: tilesShared)
                let before = adapter.rowCount
                benchmark.startMeasurement()
                adapter.append(next)
                benchmark.stopMeasurement()
                precondition(adapter.rowCount == before + 20)
                benchmark.measurement(heights, heightCallNanoseconds(adapter, rows: before..<adapter.rowCount))
                blackHole(adapter)
            }, setup: setUp)
    }

    let paired = BenchmarkMetric.custom("100000 over 1000 items x100", useScalingFactor: false)
    Benchmark(
        "collection append 20 items paired, caches evicted",
        configuration: .init(
            metrics: [paired], units: [paired: .count], warmupIterations: 1, maxDuration: .seconds(10),
            maxIterations: 40),
        closure: { benchmark in
            let large = Adapter(
                page: decode("tiles-100k.json", registry: tilesShared), registry: tilesShared, width: layoutWidth)
            let small = Adapter(
                page: decode("tiles-1k.json", registry: tilesShared), registry: tilesShared, width: layoutWidth)
            func coldAppend(_ adapter: Adapter) -> Int {
                evictCaches()
                let next = decode("tiles-next-20.json", registry: tilesShared)
                let start = DispatchTime.now().uptimeNanoseconds
                adapter.append(next)
                return Int(DispatchTime.now().uptimeNanoseconds - start)
            }
            tilesLargeFirst.toggle()
            var largeTime = 0
            var smallTime = 0
            if tilesLargeFirst {
                largeTime = coldAppend(large)
                smallTime = coldAppend(small)
            } else {
                smallTime = coldAppend(small)
                largeTime = coldAppend(large)
            }
            benchmark.measurement(paired, largeTime * 100 / max(1, smallTime))
            blackHole(large)
            blackHole(small)
        }, setup: setUp)

    for (label, page) in [("100000", "tiles-100k.json"), ("1000", "tiles-1k.json")] {
        nonisolated(unsafe) var adapter: Adapter!
        Benchmark(
            "collection visible items \(label) (1000 lookups)",
            configuration: timeConfiguration(maxIterations: 200, seconds: 3, warmup: 3),
            closure: { _ in
                let height = adapter.totalHeight
                var found = 0
                for k in 0..<1000 {
                    // Offsets spread over the whole floor (a multiplicative hash of k).
                    let offset = Double((k &* 2_654_435_761) % 1_000_003) / 1_000_003 * (height - 812)
                    found &+= adapter.visibleRows(in: Viewport(width: layoutWidth, height: 812, offset: offset)).count
                }
                blackHole(found)
            },
            setup: {
                try await setUp()
                if adapter == nil {
                    adapter = Adapter(
                        page: decode(page, registry: tilesShared), registry: tilesShared, width: layoutWidth)
                }
            })
    }

    let memory: [BenchmarkMetric] = ["adapter bytes", "page bytes"].map { .custom($0, useScalingFactor: false) }
    Benchmark(
        "collection memory 100000 items",
        configuration: .init(
            metrics: memory, units: Dictionary(uniqueKeysWithValues: memory.map { ($0, .count) }),
            warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 3),
        closure: { benchmark in
            let registry = tilesRegistry()
            bench_malloc_trim()
            let before = bench_malloc_in_use()
            let page = decode("tiles-100k.json", registry: registry)
            bench_malloc_trim()
            let decoded = bench_malloc_in_use()
            let adapter = Adapter(page: page, registry: registry, width: layoutWidth)
            bench_malloc_trim()
            let laidOut = bench_malloc_in_use()
            precondition(adapter.rowCount == 100_000)
            benchmark.measurement(memory[0], Int(laidOut) - Int(decoded))
            benchmark.measurement(memory[1], Int(decoded) - Int(before))
            blackHole(adapter)
        })
}
