// The in-process figures of issue 5 (see BENCHMARKS.md). Inputs come from Scripts/bench, which generates
// them and passes their folder in FLOORKIT_BENCH_INPUTS:
//   bulk-plugin/libBulkFloor.so   the trivial C plugin (Benchmarks/Inputs/trivial_plugin.c)
//   plugins100/*.so               100 copies of it under other ids and type names
//   shipped-plugins/*.so          the four shipped Swift plugins (release)
//   bulk-10k.json                 one Bulk floor of 10,000 rows (dispatch)
//   bulk-1m.json                  1,000 Bulk floors of 1,000 rows (layout and memory at 1,000,000 rows)
//   bulk-1m-1.json                one Bulk floor of 1,000,000 rows
//   bulk-1k.json                  one Bulk floor of 1,000 rows
//   bulk-next-20.json             a next page: one new Bulk floor of 20 rows
//   bulk-next-20b.json            another, with another floor id
//
// Time figures are wall clock in nanoseconds per iteration (timeUnits .nanoseconds, so the exported
// percentiles are exact integers); per-row figures divide by the batch size named in the benchmark.
//
// `@testable import`: the dispatch figure calls the host's registry entries and SelectorInvoker, which are
// `package` (another package sees them only through @testable). Scripts/bench builds with
// `-Xswiftc -enable-testing`; BENCHMARKS.md proposes the public API that would make this unnecessary.
import Benchmark
import CBenchSupport
import CFloorABI
import Foundation
import HostContract

@testable import FloorCore
@testable import FloorLayout
@testable import FloorRuntime
@testable import FloorSession

/// Rows per iteration of the dispatch benchmarks.
let dispatchBatch = 10_000
let layoutWidth = 375.0

enum Inputs {
    static let folder: String = {
        guard let folder = ProcessInfo.processInfo.environment["FLOORKIT_BENCH_INPUTS"] else {
            fatalError(
                "FLOORKIT_BENCH_INPUTS is not set: run the benchmarks through Scripts/bench, which generates the inputs"
            )
        }
        return folder
    }()
    static func path(_ name: String) -> String { folder + "/" + name }
}

/// A registry holding only the trivial Bulk plugin.
func bulkRegistry() -> Registry {
    let registry = Registry()
    let problems = PluginLoader.load(Inputs.path("bulk-plugin/libBulkFloor.so"), into: registry)
    precondition(problems.isEmpty, "the Bulk plugin did not load: \(problems.map(\.message))")
    return registry
}

func decode(_ page: String, registry: Registry) -> Page {
    do {
        return try PageDecoder.decode(file: Inputs.path(page), registry: registry)
    } catch {
        fatalError("\(page): \(error)")
    }
}

/// Everything the dispatch benchmarks share: one Bulk floor of `dispatchBatch` rows, described the way the
/// host's row table describes rows (dense type id, section, index within the floor).
final class DispatchFixture: @unchecked Sendable {
    let registry: Registry
    let page: Page
    let handle: UnsafeMutableRawPointer
    /// Per row, as RowTable holds them. `let`, so reading them costs the same in every variant.
    let rowType: [Int32]
    let rowSection: [UInt32]
    let rowIndex: [UInt32]
    /// Per row type id, its name (the dlsym-per-row way gets it from the model's class).
    let typeNames: [String]
    let byName: [String: (HeightFunction, CellFunction)]
    /// A canvas whose functions do nothing (the trivial cell draws nothing anyway).
    let canvas: UnsafeMutablePointer<floor_canvas_t>
    /// Per section, as the adapter keeps them: the model and where the floor came from.
    let models: ContiguousArray<UnsafeMutableRawPointer>
    let origins: ContiguousArray<FloorOrigin>

    init() {
        registry = bulkRegistry()
        page = decode("bulk-10k.json", registry: registry)
        // The library is already open (RTLD_NODELETE); this returns the same handle the loader got.
        handle = dlopen(Inputs.path("bulk-plugin/libBulkFloor.so"), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)!
        // Row types are each plugin's own (ABI 1.5): the bulk plugin's, loaded after the built-in rows.
        let bulk = registry.plugins.firstIndex { $0.path.hasSuffix("libBulkFloor.so") }!
        let type = registry.rowTypeID(named: "BulkRow", plugin: bulk)!
        rowType = Array(repeating: type, count: dispatchBatch)
        rowSection = Array(repeating: 0, count: dispatchBatch)
        rowIndex = (0..<dispatchBatch).map { UInt32($0) }
        typeNames = registry.rowTypes.map(\.name)
        byName = Dictionary(
            uniqueKeysWithValues: registry.rowTypes.map { ($0.name, ($0.heightFunction, $0.cellFunction)) })
        models = ContiguousArray(page.sections.map(\.model))
        origins = ContiguousArray(page.sections.map(\.origin))
        canvas = .allocate(capacity: 1)
        canvas.initialize(
            to: floor_canvas_t(
                struct_size: UInt32(MemoryLayout<floor_canvas_t>.size), host_data: nil, width: layoutWidth, height: 44,
                text: { _, _, _, _, _, _ in }, image: { _, _, _, _, _, _ in }, box: { _, _, _, _, _ in },
                measure_text: { _, _, _ in 0 }, fill: { _, _, _, _, _, _ in }, layout_text: nil, text_block: nil,
                item_frame: nil, page: 0, fitted_image: nil))
    }

    // The three ways compared, each over every row once; a benchmark alone or two back to back (paired).

    /// The dlsym-per-row way (iOS: NSSelectorFromString("tableView:cellFor" + class) + performSelector): build the
    /// selector's name from the row model's type name and look the symbol up, for every row.
    @inline(never) func seedWay() {
        let model = page.sections[0].model
        for r in 0..<dispatchBatch {
            let name = typeNames[Int(rowType[r])]
            let heightSymbol = dlsym(handle, "heightFor" + name)
            let height = unsafeBitCast(heightSymbol, to: HeightFunction.self)
            blackHole(height(nil, model, UInt64(rowIndex[r]), layoutWidth))
            let cellSymbol = dlsym(handle, "cellFor" + name)
            let cell = unsafeBitCast(cellSymbol, to: CellFunction.self)
            cell(nil, model, UInt64(rowIndex[r]), canvas)
        }
    }

    /// The host's typed path, as Adapter.measure does it: the registry's dispatch table of plain values
    /// (context, height, cell per row type id) and the section models, read through locals hoisted out of
    /// the loop, then two direct calls through the checked function pointers. Each call is noted in the
    /// crash record first, as the adapter does (the row, and its floor when it changes, before the height,
    /// as in Adapter.measure; enter and leave around the cell, as in drawCell).
    @inline(never) func hostTyped() {
        let table = registry.dispatch
        let record = registry.crashRecord
        let models = self.models
        let origins = self.origins
        var section = rowSection[0]
        record.on(origins[Int(section)])
        for r in 0..<dispatchBatch {
            let entry = table[Int(rowType[r])]
            let model = models[Int(rowSection[r])]
            let origin = origins[Int(rowSection[r])]
            if rowSection[r] != section {
                section = rowSection[r]
                record.on(origin)
            }
            record.step(r)
            blackHole(entry.height(entry.context, model, UInt64(rowIndex[r]), layoutWidth))
            record.withPluginCall(.cell, on: origin) { entry.cell(entry.context, model, UInt64(rowIndex[r]), canvas) }
        }
    }

    /// The host's generic path, as Adapter.measure does it with `--dispatch ffi`: the registry's table of
    /// invokers (context, height, cell per row type id) and the section models, read through locals, then
    /// libffi through each selector's SelectorInvoker, each call noted in the crash record as above.
    @inline(never) func hostFFI() {
        let table = registry.invokers
        let record = registry.crashRecord
        let models = self.models
        let origins = self.origins
        var section = rowSection[0]
        record.on(origins[Int(section)])
        for r in 0..<dispatchBatch {
            let entry = table[Int(rowType[r])]
            let model = models[Int(rowSection[r])]
            let origin = origins[Int(rowSection[r])]
            let row = SelectorValue.uint(UInt64(rowIndex[r]))
            if rowSection[r] != section {
                section = rowSection[r]
                record.on(origin)
            }
            record.step(r)
            blackHole(try? entry.height.perform(.pointer(entry.context), .pointer(model), row, .double(layoutWidth)))
            record.withPluginCall(.cell, on: origin) {
                blackHole(try? entry.cell.perform(.pointer(entry.context), .pointer(model), row, .pointer(canvas)))
            }
        }
    }
}

nonisolated(unsafe) var dispatchFixture: DispatchFixture!
nonisolated(unsafe) var bulkPage: (registry: Registry, page: Page)!
nonisolated(unsafe) var bulkAdapter: Adapter!
nonisolated(unsafe) var bulkRegistryShared: Registry!
/// Which size the paired append benchmark appends to first, alternating.
nonisolated(unsafe) var pairedAppendLargeFirst = false

func minorPageFaults() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_minflt
}

/// Twice the last-level cache (32 MiB here), written once before use so that sweeping it faults nothing.
nonisolated(unsafe) var evictionBuffer = [UInt8](repeating: 1, count: 64 << 20)

/// Sweeps `evictionBuffer` through the caches, one write a cache line: afterwards nothing the benchmark
/// touched before is in a cache or the TLB.
func evictCaches() {
    evictionBuffer.withUnsafeMutableBufferPointer { bytes in
        for i in stride(from: 0, to: bytes.count, by: 64) { bytes[i] &+= 1 }
    }
}

func timeConfiguration(maxIterations: Int, seconds: Int = 3, warmup: Int = 1) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock], timeUnits: .nanoseconds, warmupIterations: warmup,
        maxDuration: .seconds(seconds), maxIterations: maxIterations)
}

let benchmarks: @Sendable () -> Void = {
    // MARK: per-row dispatch: find and call the cell selector and height calculator for a row

    let dispatchConfig = timeConfiguration(maxIterations: 400, seconds: 2, warmup: 3)
    let setUpDispatch: Benchmark.BenchmarkSetupHook = {
        if dispatchFixture == nil { dispatchFixture = DispatchFixture() }
    }

    Benchmark(
        "dispatch seed dlsym per row (10000 rows)", configuration: dispatchConfig,
        closure: { _ in
            dispatchFixture.seedWay()
        }, setup: setUpDispatch)

    // A string-keyed table built once: hash the type name for every row.
    Benchmark(
        "dispatch Dictionary<String,fn> per row (10000 rows)", configuration: dispatchConfig,
        closure: { benchmark in
            let f = dispatchFixture!
            let model = f.page.sections[0].model
            for r in 0..<dispatchBatch {
                let (height, cell) = f.byName[f.typeNames[Int(f.rowType[r])]]!
                blackHole(height(nil, model, UInt64(f.rowIndex[r]), layoutWidth))
                cell(nil, model, UInt64(f.rowIndex[r]), f.canvas)
            }
        }, setup: setUpDispatch)

    Benchmark(
        "dispatch host typed (10000 rows)", configuration: dispatchConfig,
        closure: { _ in
            dispatchFixture.hostTyped()
        }, setup: setUpDispatch)

    // The typed path as the adapter did it before the dense table (commit 0d0ffe8 and earlier), for the
    // record: per row, a RowType and a Section copied out of class properties (retains, releases and
    // exclusivity checks), then the same direct calls.
    Benchmark(
        "dispatch old typed path (10000 rows)", configuration: dispatchConfig,
        closure: { benchmark in
            let f = dispatchFixture!
            for r in 0..<dispatchBatch {
                let type = f.registry.rowTypes[Int(f.rowType[r])]
                let model = f.page.sections[Int(f.rowSection[r])].model
                blackHole(type.heightFunction(type.context, model, UInt64(f.rowIndex[r]), layoutWidth))
                type.cellFunction(type.context, model, UInt64(f.rowIndex[r]), f.canvas)
            }
        }, setup: setUpDispatch)

    // The ffi path also counts its mallocs: SelectorInvoker allocates nothing per call, so 0 a row.
    let mallocCountingConfig = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, units: [.mallocCountTotal: .count],
        warmupIterations: 3, maxDuration: .seconds(2), maxIterations: 400)
    Benchmark(
        "dispatch host ffi (10000 rows)", configuration: mallocCountingConfig,
        closure: { _ in
            dispatchFixture.hostFFI()
        }, setup: setUpDispatch)

    // The ratios, paired: each iteration times the dlsym-per-row way and each host path back to back (a few ms
    // in all), so that every ratio compares two figures taken under the same conditions on a shared
    // machine, where separate medians minutes apart can each catch a different burst of load. Recorded
    // as ratio x 100 (metrics are integers); the report takes the median.
    let pairedMetrics: [BenchmarkMetric] = [
        .custom("seed over typed x100", useScalingFactor: false),
        .custom("seed over ffi x100", useScalingFactor: false),
    ]
    Benchmark(
        "dispatch ratios paired (10000 rows)",
        configuration: .init(
            metrics: pairedMetrics, units: [pairedMetrics[0]: .count, pairedMetrics[1]: .count],
            warmupIterations: 3, maxDuration: .seconds(4), maxIterations: 400),
        closure: { benchmark in
            let f = dispatchFixture!
            func timed(_ body: () -> Void) -> Int {
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                return Int(DispatchTime.now().uptimeNanoseconds - start)
            }
            let seed = timed(f.seedWay)
            let typed = timed(f.hostTyped)
            let ffi = timed(f.hostFFI)
            benchmark.measurement(pairedMetrics[0], seed * 100 / max(1, typed))
            benchmark.measurement(pairedMetrics[1], seed * 100 / max(1, ffi))
        }, setup: setUpDispatch)

    // The ffi path without allocations: call interfaces, argument slots and pointer arrays prepared once
    // (in C, bench_support.c), the same lookup as the typed path: the floor for SelectorInvoker, which
    // prepares the same once per selector but checks each argument against the signature.
    Benchmark(
        "dispatch ffi prepared (10000 rows)", configuration: dispatchConfig,
        closure: { benchmark in
            let f = dispatchFixture!
            let models = ContiguousArray(f.page.sections.map(\.model))
            let contexts = f.registry.dispatch.map(\.context)
            for r in 0..<dispatchBatch {
                let context = contexts[Int(f.rowType[r])]
                let model = models[Int(f.rowSection[r])]
                blackHole(bench_ffi_height(context, model, UInt64(f.rowIndex[r]), layoutWidth))
                bench_ffi_cell(context, model, UInt64(f.rowIndex[r]), f.canvas)
            }
        },
        setup: {
            try await setUpDispatch()
            let type = dispatchFixture.registry.rowTypes[Int(dispatchFixture.rowType[0])]
            precondition(bench_ffi_prepare(type.height.function, type.cell.function) == 1)
        })

    // What one allocation costs in this process (package-benchmark's malloc interposer sits in front of
    // malloc): the dlsym-per-row way allocates a name per row. Also counts them (10,000 an iteration), which shows
    // that the counter the ffi path's 0 comes from counts.
    Benchmark(
        "malloc free 32 bytes (10000 times)", configuration: mallocCountingConfig,
        closure: { benchmark in
            for _ in 0..<dispatchBatch {
                let p = malloc(32)
                blackHole(p)
                free(p)
            }
        })

    // The floor: two direct calls to C functions linked into this executable, no lookup at all.
    Benchmark(
        "dispatch direct call (10000 rows)", configuration: dispatchConfig,
        closure: { benchmark in
            let f = dispatchFixture!
            let model = f.page.sections[0].model
            for r in 0..<dispatchBatch {
                blackHole(bench_height(nil, model, UInt64(f.rowIndex[r]), layoutWidth))
                bench_cell(nil, model, UInt64(f.rowIndex[r]), f.canvas)
            }
        }, setup: setUpDispatch)

    // MARK: loading 100 plugins (discover, open, check, register)

    // dlopen returns the already-loaded copy for a path (or inode) it has seen, and plugins are never
    // unloaded, so every iteration loads fresh copies of the 100 libraries from a new folder; copying is
    // not measured.
    let scratch = NSTemporaryDirectory() + "floorkit-bench-plugins-\(getpid())"
    Benchmark(
        "load 100 plugins", configuration: timeConfiguration(maxIterations: 12, seconds: 10, warmup: 1),
        closure: { benchmark in
            let folder = scratch + "/" + UUID().uuidString
            try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in try! FileManager.default.contentsOfDirectory(atPath: Inputs.path("plugins100")) {
                try! FileManager.default.copyItem(
                    atPath: Inputs.path("plugins100/" + name), toPath: folder + "/" + name)
            }
            let registry = Registry()
            benchmark.startMeasurement()
            let problems = try! PluginLoader.loadFolder(folder, into: registry)
            benchmark.stopMeasurement()
            precondition(
                problems.isEmpty && registry.plugins.count == 101,
                "plugins did not load: \(problems.prefix(3).map(\.message))")
            blackHole(registry)
        }, teardown: { try? FileManager.default.removeItem(atPath: scratch) })

    // MARK: layout of 1,000,000 decoded rows, cold (every height computed), trivial plugin

    let setUpBulk: Benchmark.BenchmarkSetupHook = {
        if bulkPage == nil {
            let registry = bulkRegistry()
            bulkPage = (registry, decode("bulk-1m.json", registry: registry))
        }
    }
    for mode in DispatchMode.allCases {
        Benchmark(
            "layout 1000000 rows cold \(mode.rawValue)",
            configuration: timeConfiguration(maxIterations: 15, seconds: 10),
            closure: { benchmark in
                let (registry, page) = bulkPage!
                benchmark.startMeasurement()
                let adapter = Adapter(page: page, registry: registry, width: layoutWidth, dispatch: mode)
                benchmark.stopMeasurement()
                precondition(adapter.rowCount == 1_000_000)
                blackHole(adapter.totalHeight)
            }, setup: setUpBulk)
    }

    // MARK: host memory per row at 1,000,000 rows

    // What the host holds for a page of 1,000,000 rows: malloc'd bytes in use (glibc mallinfo2: arena bytes
    // in use + mmap'd blocks) before decoding the page and after laying it out, with both kept alive. The
    // trivial plugin's own models are 1,000 allocations of 8 bytes (under 0.05 bytes a row), so the delta is
    // the host's: the page's sections and the adapter's row table.
    let memoryMetrics: [BenchmarkMetric] = ["host bytes", "page bytes", "adapter bytes"].map {
        .custom($0, useScalingFactor: false)
    }
    Benchmark(
        "memory 1000000 rows",
        configuration: .init(
            metrics: memoryMetrics, units: Dictionary(uniqueKeysWithValues: memoryMetrics.map { ($0, .count) }),
            warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 3),
        closure: { benchmark in
            let registry = bulkRegistry()
            bench_malloc_trim()
            let before = bench_malloc_in_use()
            let page = decode("bulk-1m.json", registry: registry)
            bench_malloc_trim()
            let decoded = bench_malloc_in_use()
            let adapter = Adapter(page: page, registry: registry, width: layoutWidth)
            bench_malloc_trim()
            let laidOut = bench_malloc_in_use()
            precondition(adapter.rowCount == 1_000_000)
            benchmark.measurement(.custom("host bytes", useScalingFactor: false), Int(laidOut) - Int(before))
            benchmark.measurement(.custom("page bytes", useScalingFactor: false), Int(decoded) - Int(before))
            benchmark.measurement(.custom("adapter bytes", useScalingFactor: false), Int(laidOut) - Int(decoded))
            blackHole(adapter)
        })

    // MARK: layout of 1,000,000 rows, heights cached

    // Adapter.relayout(): every row's offset recomputed from the height cache, no plugin called.
    Benchmark(
        "layout 1000000 rows cached", configuration: timeConfiguration(maxIterations: 50, seconds: 5),
        closure: { benchmark in
            let adapter = bulkAdapter!
            let calls = adapter.stats.heightCalls
            let total = adapter.totalHeight
            benchmark.startMeasurement()
            adapter.relayout()
            benchmark.stopMeasurement()
            precondition(adapter.totalHeight == total && adapter.stats.heightCalls == calls)
        },
        setup: {
            try await setUpBulk()
            if bulkAdapter == nil {
                bulkAdapter = Adapter(page: bulkPage.page, registry: bulkPage.registry, width: layoutWidth)
            }
        })

    // MARK: impression tracking per scroll step at 1,000,000 rows (issue 13)

    // Two PageSessions on the same laid-out 1,000,000-row page scroll 200 steps of one screen each from the
    // middle, one without impressions and one with the standard rule (50 %, 500 ms) on the simulated clock
    // (1,000 ms a step, so every row on screen counts at the step after it appears: the most work a step can
    // have: each row's tappable count and a cell call to see whether it draws; the Bulk cell draws nothing,
    // so no event is appended). The figure is the difference per step; which session goes first alternates.
    let impressionMetrics: [BenchmarkMetric] = [
        "step ns without impressions", "step ns with impressions",
        "impression overhead ns per step",
    ].map { .custom($0, useScalingFactor: false) }
    var impressionIteration = 0
    Benchmark(
        "impressions per scroll step 1000000 rows",
        configuration: .init(
            metrics: impressionMetrics, units: Dictionary(uniqueKeysWithValues: impressionMetrics.map { ($0, .count) }),
            warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 40),
        closure: { benchmark in
            let adapter = bulkAdapter!
            let steps = 200
            let screen = 812.0
            func nanosecondsPerStep(_ rule: ImpressionRule?) -> Int {
                let session = PageSession(
                    adapter: adapter, viewportHeight: screen, source: PageSource(registry: bulkPage.registry),
                    impressions: rule)
                let start = (adapter.totalHeight / 2).rounded()
                session.scroll(to: start)
                let cells = adapter.stats.cellCalls
                let t0 = DispatchTime.now().uptimeNanoseconds
                for k in 1...steps { session.scroll(to: start + Double(k) * screen) }
                let t1 = DispatchTime.now().uptimeNanoseconds
                // Every row that counted was drawn once to see whether it draws anything (the Bulk cell draws
                // nothing, so no event is written: the tracking is measured, not the event list).
                precondition(rule == nil || adapter.stats.cellCalls >= cells + steps, "impressions looked at no row")
                blackHole(session)
                return Int(t1 - t0) / steps
            }
            impressionIteration += 1
            let (off, on): (Int, Int)
            if impressionIteration % 2 == 0 {
                off = nanosecondsPerStep(nil)
                on = nanosecondsPerStep(.standard)
            } else {
                on = nanosecondsPerStep(.standard)
                off = nanosecondsPerStep(nil)
            }
            benchmark.measurement(impressionMetrics[0], off)
            benchmark.measurement(impressionMetrics[1], on)
            benchmark.measurement(impressionMetrics[2], max(0, on - off))
        },
        setup: {
            try await setUpBulk()
            if bulkAdapter == nil {
                bulkAdapter = Adapter(page: bulkPage.page, registry: bulkPage.registry, width: layoutWidth)
            }
        })

    // MARK: appending a 20-row next page, at 1,000,000 rows and at 1,000 rows

    // Each iteration builds a fresh adapter (not measured) and a freshly decoded next page (not measured),
    // then times Adapter.append: one new floor of 20 rows, laid out. "1000000 rows in 1 floor" separates
    // what grows with the floors from what grows with the rows. Three starting states, the same for every
    // size, since a ratio of two sizes means something only from the same state:
    //   "caches evicted"  64 MB are swept through the caches after the layout, before the next page is
    //                     decoded: cold caches and TLB at both sizes (the figure of issue 5);
    //   "after layout"    nothing in between: at 1,000 rows the append finds everything it touches still
    //                     in cache from the layout, at 1,000,000 rows nothing (building 32 MB of rows swept it);
    //   "second append"   another 20-row page appended first (not measured): warm at both sizes.
    // Each also records the minor page faults the timed append took (getrusage).
    let appendMetrics: [BenchmarkMetric] = [.wallClock, .custom("page faults", useScalingFactor: false)]
    for (label, page) in [
        ("1000000 rows", "bulk-1m.json"), ("1000000 rows in 1 floor", "bulk-1m-1.json"), ("1000 rows", "bulk-1k.json"),
    ] {
        for state in ["caches evicted", "after layout", "second append"] {
            let config = Benchmark.Configuration(
                metrics: appendMetrics, timeUnits: .nanoseconds, units: [appendMetrics[1]: .count], warmupIterations: 1,
                maxDuration: .seconds(10), maxIterations: label == "1000 rows" ? 200 : 40)
            Benchmark(
                "append 20 rows to \(label), \(state)", configuration: config,
                closure: { benchmark in
                    let registry: Registry = page == "bulk-1m.json" ? bulkPage.registry : bulkRegistryShared!
                    let first = page == "bulk-1m.json" ? bulkPage.page : decode(page, registry: registry)
                    let adapter = Adapter(page: first, registry: registry, width: layoutWidth)
                    switch state {
                    case "caches evicted": evictCaches()
                    case "second append": adapter.append(decode("bulk-next-20b.json", registry: registry))
                    default: break
                    }
                    let next = decode("bulk-next-20.json", registry: registry)
                    let before = adapter.rowCount
                    let faults = minorPageFaults()
                    benchmark.startMeasurement()
                    adapter.append(next)
                    benchmark.stopMeasurement()
                    benchmark.measurement(appendMetrics[1], minorPageFaults() - faults)
                    precondition(adapter.rowCount == before + 20)
                    blackHole(adapter)
                },
                setup: {
                    try await setUpBulk()
                    if bulkRegistryShared == nil { bulkRegistryShared = bulkRegistry() }
                })
        }
    }

    // The ratio, paired: each iteration lays out both pages, then appends to each from evicted caches,
    // back to back (which size goes first alternates), and records the ratio of the two appends (x 100).
    // Like the dispatch ratios: both sides of each ratio meet the machine in the same moment.
    let pairedAppend = BenchmarkMetric.custom("1000000 over 1000 rows x100", useScalingFactor: false)
    Benchmark(
        "append 20 rows paired, caches evicted",
        configuration: .init(
            metrics: [pairedAppend], units: [pairedAppend: .count], warmupIterations: 1,
            maxDuration: .seconds(10), maxIterations: 40),
        closure: { benchmark in
            let registry: Registry = bulkPage.registry
            let large = Adapter(page: bulkPage.page, registry: registry, width: layoutWidth)
            let small = Adapter(
                page: decode("bulk-1k.json", registry: registry), registry: registry, width: layoutWidth)
            func coldAppend(_ adapter: Adapter) -> Int {
                evictCaches()
                let next = decode("bulk-next-20.json", registry: registry)
                let start = DispatchTime.now().uptimeNanoseconds
                adapter.append(next)
                return Int(DispatchTime.now().uptimeNanoseconds - start)
            }
            pairedAppendLargeFirst.toggle()
            let (largeTime, smallTime) =
                pairedAppendLargeFirst
                ? {
                    let l = coldAppend(large)
                    return (l, coldAppend(small))
                }()
                : {
                    let s = coldAppend(small)
                    return (coldAppend(large), s)
                }()
            benchmark.measurement(pairedAppend, largeTime * 100 / max(1, smallTime))
            blackHole(large)
            blackHole(small)
        },
        setup: {
            try await setUpBulk()
        })

    viewBenchmarks()
    collectionBenchmarks()
}
