import CFloorABI
import FloorRuntime
import FoundationEssentials
import HostContract

#if canImport(Glibc)
import Glibc
#endif

/// One loaded plugin as the behaviour checks see it: its types in the registry, and timed calls into its
/// selectors. Every call is measured; one that returns later than `callLimit` seconds is reported as a
/// slow call of the current check. Lives in the conformance child only; one thread.
package final class PluginUnderTest {
    package let library: String
    package let registry: Registry
    /// The plugin's index in the registry.
    package let plugin: Int
    package let callLimit: Double
    /// The check whose calls are being made (for slow-call reports).
    package var check = ""
    private let emit: (ChildEvent) -> Void

    package init(
        library: String, registry: Registry, plugin: Int, callLimit: Double, emit: @escaping (ChildEvent) -> Void
    ) {
        self.library = library
        self.registry = registry
        self.plugin = plugin
        self.callLimit = callLimit
        self.emit = emit
    }

    /// Tells the parent where the check is, so a crash or hang names it.
    package func step(_ detail: String) { emit(.step(detail: detail)) }

    /// Sends the parent any other event (a snapshot, a fuzz case).
    package func send(_ event: ChildEvent) { emit(event) }

    package func floorType(_ id: Int32) -> Registry.FloorType { registry.floorTypes[Int(id)] }
    package func rowType(_ id: Int32) -> Registry.RowType { registry.rowTypes[Int(id)] }

    /// A decoded model, or nil with the reasons the decoder reported (path, message).
    package func decode(_ type: Int32, _ bytes: [UInt8]) -> (
        model: UnsafeMutableRawPointer?, errors: [(path: String, message: String)]
    ) {
        let floor = floorType(type)
        // An exact-size copy: the decoder gets no NUL terminator and nothing after the floor, as on a page.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        defer { buffer.deallocate() }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) } }
        let report = DecodeReport()
        let model = report.withReport { report in
            timed(floor.decode.name) {
                let result = try? floor.decode.invoker.perform(
                    .pointer(floor.context), .pointer(buffer),
                    .uint(UInt64(bytes.count)), .pointer(report))
                if case .pointer(let model)? = result { return model }
                return nil
            }
        }
        return (model, report.errors)
    }

    /// The rows expand lists, or why they are unusable (a row type this plugin did not register).
    /// `previous` are the rows the host holds from the last expand, of which the first `reusable` may be
    /// kept (ABI 1.2's floor_row_sink_t.keep, offered only right after an extend); the result is the whole
    /// row list, kept rows included.
    package func expand(_ type: Int32, _ model: UnsafeMutableRawPointer, reusable: Int = 0, previous: [Int32] = [])
        -> Result<[Int32], ConformanceFailure>
    {
        let floor = floorType(type)
        let sink = RowList()
        sink.previous = Array(previous.prefix(reusable))
        var raw = floor_row_sink_t()
        raw.host_data = Unmanaged.passUnretained(sink).toOpaque()
        raw.add = { sink, type, flags in
            guard let data = sink?.pointee.host_data else { return }
            let list = Unmanaged<RowList>.fromOpaque(data).takeUnretainedValue()
            list.types.append(type)
            list.flags.append(flags)
        }
        if reusable > 0 {
            raw.reusable = UInt64(reusable)
            raw.keep = { sink, count in
                guard let data = sink?.pointee.host_data else { return }
                let list = Unmanaged<RowList>.fromOpaque(data).takeUnretainedValue()
                // floor_abi.h: once, before any add, at most `reusable`; any other call is ignored.
                guard list.types.isEmpty, !list.kept, count <= UInt64(list.previous.count) else { return }
                list.kept = true
                list.types = Array(list.previous.prefix(Int(count)))
            }
        }
        timed(floor.expand.name) {
            withUnsafeMutablePointer(to: &raw) { pointer in
                _ = try? floor.expand.invoker.perform(
                    .pointer(floor.context), .pointer(model),
                    .pointer(UnsafeMutableRawPointer(pointer)))
            }
        }
        for (row, id) in sink.types.enumerated() {
            guard id >= 0, Int(id) < registry.rowTypes.count, registry.rowTypes[Int(id)].plugin == plugin else {
                return .failure(
                    .init(
                        "\(floor.expand.name) listed row \(row) with row type id \(id), which this plugin did not register"
                    ))
            }
        }
        lastFlags = sink.kept ? [] : sink.flags
        return .success(sink.types)
    }

    /// The FLOOR_ROW_* flags of the rows the last `expand` listed (empty when it kept rows): which are items
    /// of a collection (ABI 1.5).
    package private(set) var lastFlags: [UInt32] = []

    /// The floor type's validator's verdict on `model` with the problems it reported, or nil when the type
    /// registers no validator (ABI 1.1, optional).
    package func validate(_ type: Int32, _ model: UnsafeMutableRawPointer) -> (
        valid: Bool, errors: [(path: String, message: String)]
    )? {
        let floor = floorType(type)
        guard let validate = floor.validate else { return nil }
        let report = DecodeReport()
        let valid = report.withReport { report in
            timed(validate.name) {
                (try? validate.invoker.perform(.pointer(floor.context), .pointer(model), .pointer(report)))
                    == .bool(true)
            }
        }
        return (valid, report.errors)
    }

    package func destroy(_ type: Int32, _ model: UnsafeMutableRawPointer) {
        let floor = floorType(type)
        timed(floor.destroy.name) {
            _ = try? floor.destroy.invoker.perform(.pointer(floor.context), .pointer(model))
        }
    }

    package func height(_ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int, width: Double) -> Double {
        let type = self.rowType(rowType)
        return timed(type.height.name) { type.heightFunction(type.context, model, UInt64(row), width) }
    }

    package func draw(_ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int, width: Double, height: Double)
        -> [RecordingCanvas.Operation]
    {
        let type = self.rowType(rowType)
        return timed(type.cell.name) {
            RecordingCanvas.record(width: width, height: height) {
                type.cellFunction(type.context, model, UInt64(row), $0)
            }
        }
    }

    /// The item frames row `row`'s cell reports drawing horizontal page `page`, as the plugin gave them.
    package func itemFrames(
        _ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int, width: Double, height: Double, page: Int
    ) -> [ItemFrame] {
        let type = self.rowType(rowType)
        return timed(type.cell.name) {
            RecordingCanvas.recording(width: width, height: height, page: page) {
                type.cellFunction(type.context, model, UInt64(row), $0)
            }.itemFrames
        }
    }

    /// How many horizontal pages row `row` has (ABI 1.5, optional: 1 without a pages selector), as the
    /// plugin answered, unchecked.
    package func pages(_ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int) -> UInt64 {
        let type = self.rowType(rowType)
        guard let pages = type.pages else { return 1 }
        return timed(pages.name) {
            if case .uint(let count)? = try? pages.invoker.perform(
                .pointer(type.context), .pointer(model), .uint(UInt64(row)))
            {
                return count
            }
            return 1
        }
    }

    /// How many items of row `row` a tap can hit, or nil when its row type is not tappable (ABI 1.1, optional).
    package func tappable(_ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int) -> UInt64? {
        let type = self.rowType(rowType)
        guard let tappable = type.tappable else { return nil }
        return timed(tappable.name) {
            if case .uint(let count)? = try? tappable.invoker.perform(
                .pointer(type.context), .pointer(model), .uint(UInt64(row)))
            {
                return count
            }
            return 0
        }
    }

    /// What the action selector said for item `item` of row `row`: whether it returned true, and what it
    /// gave the action sink (url, eventId, params, and any misuse of the sink).
    package func action(_ rowType: Int32, _ model: UnsafeMutableRawPointer, row: Int, item: UInt64) -> (
        returned: Bool, sink: ActionCollector
    )? {
        let type = self.rowType(rowType)
        guard let action = type.action else { return nil }
        let collector = ActionCollector()
        let returned = timed(action.name) {
            collector.withSink { sink in
                (try? action.invoker.perform(
                    .pointer(type.context), .pointer(model), .uint(UInt64(row)), .uint(item), .pointer(sink)))
                    == .bool(true)
            }
        }
        return (returned, collector)
    }

    /// Calls the floor type's extender with `next` (a model of the same type) as a next page's floor would:
    /// the dropped duplicates it reported and its claim of unchanged rows. The caller still owns `next`
    /// and destroys it, as the host does. Nil when the type registers no extender.
    package func extend(_ type: Int32, _ model: UnsafeMutableRawPointer, with next: UnsafeMutableRawPointer)
        -> (reported: [(path: String, message: String)], result: floor_extend_result_t)?
    {
        let floor = floorType(type)
        guard let extend = floor.extend else { return nil }
        let report = DecodeReport()
        var result = floor_extend_result_t(unchanged_leading: 0, unchanged_trailing: 0)
        report.withReport { report in
            timed(extend.name) {
                withUnsafeMutablePointer(to: &result) { result in
                    _ = try? extend.invoker.perform(
                        .pointer(floor.context), .pointer(model), .pointer(next),
                        .pointer(report), .pointer(UnsafeMutableRawPointer(result)))
                }
            }
        }
        return (report.errors, result)
    }

    /// Decodes `sample`, which the samples check proved decodes and expands, runs `body` with the model and
    /// its rows, and destroys the model.
    package func withModel<T>(
        _ sample: SampleSet.Sample, _ body: (UnsafeMutableRawPointer, [Int32]) throws(ConformanceFailure) -> T
    ) throws(ConformanceFailure) -> T {
        let decoded = decode(sample.floorType, sample.bytes)
        guard let model = decoded.model else {
            throw ConformanceFailure(
                "\(floorType(sample.floorType).decode.name) refused \(sample.label) this time, though it decoded it before"
            )
        }
        defer { destroy(sample.floorType, model) }
        let rows = try expand(sample.floorType, model).get()
        return try body(model, rows)
    }

    /// This check's calls so far (ChildEvent.progress), and when progress was last sent.
    private var calls = 0, callSeconds = 0.0, slowest = (call: "", seconds: 0.0)
    private var lastProgress = 0.0
    package static let progressInterval = 0.25

    private func timed<T>(_ call: String, _ body: () -> T) -> T {
        let start = Self.now()
        let result = body()
        let end = Self.now()
        let seconds = end - start
        if seconds > callLimit { emit(.slowCall(check: check, call: call, seconds: seconds)) }
        calls += 1
        callSeconds += seconds
        if seconds > slowest.seconds { slowest = (call, seconds) }
        if end - lastProgress >= Self.progressInterval {
            lastProgress = end
            emit(
                .progress(
                    check: check, calls: calls, seconds: callSeconds, slowestCall: slowest.call,
                    slowestSeconds: slowest.seconds))
        }
        return result
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private final class RowList {
        var types: [Int32] = []
        var flags: [UInt32] = []
        var previous: [Int32] = []
        var kept = false
    }
}
