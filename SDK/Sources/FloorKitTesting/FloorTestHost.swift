import CFloorABI
import Foundation
import HostContract

/// A floor plugin loaded into a test process the way floorhost loads it: its entry function gives the
/// descriptor, the ABI version is checked, `init` registers through a host table, and every later call
/// goes through the selectors it registered (floor_abi.h), with the host's rules checked on each. For a
/// plugin package's own `swift test`, with the plugin's target linked into the test:
///
///     import FloorKitTesting
///     import Testing
///     @testable import CouponStripFloor
///
///     @Test func aCouponShowsItsLabel() throws {
///         let host = try FloorTestHost.load(floorPluginEntry)
///         let floor = try host.decode(#"{"type":"CouponStrip","id":"c","items":[{"id":"a","label":"¥20 off"}]}"#)
///         #expect(floor.rows.map(\.type) == ["CouponStripItem"])
///         #expect(try floor.draw(row: 0, width: 375).texts == ["¥20 off"])
///     }
///
/// What floorhost would refuse, clamp or report (a height that is not finite, a drawing outside its cell,
/// an action sink used out of order, an extend that claims rows it changed) is a thrown FloorTestFailure
/// naming the selector, so a test fails where `floorhost conform` would. Crashes are not contained: the
/// plugin runs in the test process (conform runs it in a child).
///
/// Text: the kit links the host's text engine (FloorText: HarfBuzz and ICU on the Noto set of
/// Fonts.lock; `Scripts/setup` installs them), and its host table and canvas answer layout_text, text_block
/// and measure_text with the host's own functions (HostContract's HostTextLayout), so a height a kit test
/// sees is the height floorhost lays out. A plugin's package therefore needs libharfbuzz-dev,
/// libfreetype-dev, libicu-dev and the fonts to run its tests; the plugin itself links none of them.
///
/// Threading: floor_abi.h lets a host call a plugin from one thread at a time; Swift Testing runs tests in
/// parallel, so every call into any plugin here holds one process-wide lock.
public final class FloorTestHost: @unchecked Sendable {
    public let pluginID: String
    public let pluginName: String
    public let pluginVersion: String
    /// The ABI version the plugin was built against.
    public let abiMajor: Int
    public let abiMinor: Int

    private(set) var floorTypes: [RegisteredFloorType] = []
    private(set) var rowTypes: [RegisteredRowType] = []
    private var log: [LogMessage] = []
    private var refusals: [String] = []
    private var initializing = true

    /// The floor types the plugin registered, in order.
    public var floorTypeNames: [String] { floorTypes.map(\.name) }
    /// The row types the plugin registered, in order.
    public var rowTypeNames: [String] { rowTypes.map(\.name) }
    /// Everything the plugin logged so far, `init` included.
    public var messages: [LogMessage] { Self.calling { log } }

    /// The plugin whose entry function is `entry` (its `floor_plugin_entry`), loaded once per process as
    /// floorhost loads a library once (`init` is called once): later calls return the same host, or throw
    /// the same failure.
    public static func load(_ entry: () -> UnsafeRawPointer) throws -> FloorTestHost {
        try calling { () throws -> FloorTestHost in
            let descriptor = entry()
            if let loaded = loaded[descriptor] { return try loaded.get() }
            let result = Result {
                try FloorTestHost(descriptor.assumingMemoryBound(to: floor_plugin_descriptor_t.self))
            }
            loaded[descriptor] = result
            return try result.get()
        }
    }

    nonisolated(unsafe) private static var loaded: [UnsafeRawPointer: Result<FloorTestHost, any Error>] = [:]
    private static let lock = NSRecursiveLock()

    /// Runs `body` holding the lock every call into a plugin holds.
    static func calling<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private init(_ descriptor: UnsafePointer<floor_plugin_descriptor_t>) throws {
        let d = descriptor.pointee
        guard Int(d.struct_size) >= MemoryLayout<floor_plugin_descriptor_t>.size else {
            throw FloorTestFailure(
                "the plugin descriptor's struct_size is \(d.struct_size), smaller than floor_plugin_descriptor_t (\(MemoryLayout<floor_plugin_descriptor_t>.size))"
            )
        }
        pluginID = d.id.map { String(cString: $0) } ?? ""
        pluginName = d.name.map { String(cString: $0) } ?? ""
        pluginVersion = d.version.map { String(cString: $0) } ?? ""
        abiMajor = Int(d.abi_major)
        abiMinor = Int(d.abi_minor)
        guard d.abi_major == FLOOR_ABI_MAJOR, d.abi_minor <= FLOOR_ABI_MINOR else {
            throw FloorTestFailure(
                "plugin \(pluginID) is built against ABI \(d.abi_major).\(d.abi_minor); this kit is \(FLOOR_ABI_MAJOR).\(FLOOR_ABI_MINOR) (same major, minor at most the host's)"
            )
        }
        guard let initialize = d.`init` else { throw FloorTestFailure("plugin \(pluginID)'s descriptor has no init") }
        // The host table lives for the process, as floor_abi.h promises.
        let table = UnsafeMutablePointer<floor_host_t>.allocate(capacity: 1)
        table.initialize(to: floor_host_t())
        table.pointee.struct_size = UInt32(MemoryLayout<floor_host_t>.size)
        table.pointee.abi_major = UInt32(FLOOR_ABI_MAJOR)
        table.pointee.abi_minor = UInt32(FLOOR_ABI_MINOR)
        // The table and this host live for the process: the plugin may keep the table, even when init fails.
        table.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
        table.pointee.register_row_type = { table, rowType in
            guard let host = FloorTestHost.from(table), let rowType else { return -1 }
            return host.register(rowType)
        }
        table.pointee.register_floor_type = { table, floorType in
            guard let host = FloorTestHost.from(table), let floorType else { return false }
            return host.register(floorType)
        }
        table.pointee.log = { table, level, message in
            FloorTestHost.from(table)?.log.append(LogMessage(level, message.map { String(cString: $0) } ?? ""))
        }
        table.pointee.measure_text = { _, text, style in TextMeasure.points(cString: text, style: style) }
        // ABI 1.5's layout_text: the host's own engine (HostContract, FloorText), so heights equal floorhost's.
        table.pointee.layout_text = { _, text, length, style, maxWidth, maxLines, out in
            HostTextLayout.write(
                HostTextLayout.block(utf8: text, length: length, style: style, maxWidth: maxWidth, maxLines: maxLines),
                to: out)
        }
        let accepted = initialize(table)
        initializing = false
        guard accepted else {
            throw FloorTestFailure(
                "plugin \(pluginID)'s init returned false\(refusals.isEmpty ? "" : ": " + refusals.joined(separator: "; "))"
            )
        }
        guard refusals.isEmpty else {
            throw FloorTestFailure(
                "floorhost refuses these registrations of plugin \(pluginID): \(refusals.joined(separator: "; "))")
        }
    }

    private static func from(_ table: UnsafePointer<floor_host_t>?) -> FloorTestHost? {
        table?.pointee.host_data.map { Unmanaged<FloorTestHost>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Registration

    private func register(_ raw: UnsafePointer<floor_row_type_t>) -> Int32 {
        var type = floor_row_type_t()
        guard
            let size = copy(
                raw, into: &type, minimum: MemoryLayout<floor_row_type_t>.offset(of: \.tappable)!,
                what: "floor_row_type_t")
        else { return -1 }
        let name = type.type_name.map { String(cString: $0) } ?? ""
        do {
            try checkName(name, taken: rowTypeNames, what: "row type")
            // A minor's fields are there when the struct reaches their end (a 1.4 row type ends after action).
            func has(_ field: KeyPath<floor_row_type_t, floor_selector_t>) -> Bool { StructSize.reaches(size, field) }
            let optional = has(\.action)
            rowTypes.append(
                RegisteredRowType(
                    name: name, context: type.context,
                    height: try checked(
                        type.height, slot: "the height of row type '\(name)'", signature: FLOOR_SIG_HEIGHT,
                        required: true, as: HeightFunction.self)!,
                    cell: try checked(
                        type.cell, slot: "the cell of row type '\(name)'", signature: FLOOR_SIG_CELL, required: true,
                        as: CellFunction.self)!,
                    tappable: optional
                        ? try checked(
                            type.tappable, slot: "the tappable of row type '\(name)'", signature: FLOOR_SIG_TAPPABLE,
                            required: false, as: TappableFunction.self) : nil,
                    action: optional
                        ? try checked(
                            type.action, slot: "the action of row type '\(name)'", signature: FLOOR_SIG_ACTION,
                            required: false, as: ActionFunction.self) : nil,
                    pages: has(\.pages)
                        ? try checked(
                            type.pages, slot: "the pages of row type '\(name)'", signature: FLOOR_SIG_PAGES,
                            required: false, as: PagesFunction.self) : nil))
            return Int32(rowTypes.count - 1)
        } catch {
            refusals.append("row type '\(name)': \(error)")
            return -1
        }
    }

    private func register(_ raw: UnsafePointer<floor_floor_type_t>) -> Bool {
        var type = floor_floor_type_t()
        guard
            let size = copy(
                raw, into: &type, minimum: MemoryLayout<floor_floor_type_t>.offset(of: \.validate)!,
                what: "floor_floor_type_t")
        else { return false }
        let name = type.type_name.map { String(cString: $0) } ?? ""
        func has<Value>(_ field: KeyPath<floor_floor_type_t, Value>) -> Bool { StructSize.reaches(size, field) }
        do {
            try checkName(name, taken: floorTypeNames, what: "floor type")
            floorTypes.append(
                RegisteredFloorType(
                    name: name, context: type.context,
                    sampleJSON: type.sample_json.map { String(cString: $0) },
                    schemaJSON: has(\.schema_json)
                        ? type.schema_json.map { String(cString: $0) } : nil,
                    decode: try checked(
                        type.decode, slot: "the decode of floor type '\(name)'", signature: FLOOR_SIG_DECODE,
                        required: true, as: DecodeFunction.self)!,
                    expand: try checked(
                        type.expand, slot: "the expand of floor type '\(name)'", signature: FLOOR_SIG_EXPAND,
                        required: true, as: ExpandFunction.self)!,
                    destroy: try checked(
                        type.destroy, slot: "the destroy of floor type '\(name)'", signature: FLOOR_SIG_DESTROY,
                        required: true, as: DestroyFunction.self)!,
                    validate: has(\.validate)
                        ? try checked(
                            type.validate, slot: "the validate of floor type '\(name)'", signature: FLOOR_SIG_VALIDATE,
                            required: false, as: ValidateFunction.self) : nil,
                    extend: has(\.extend)
                        ? try checked(
                            type.extend, slot: "the extend of floor type '\(name)'", signature: FLOOR_SIG_EXTEND,
                            required: false, as: ExtendFunction.self) : nil))
            return true
        } catch {
            refusals.append("floor type '\(name)': \(error)")
            return false
        }
    }

    /// Copies the `struct_size` bytes the plugin wrote (a plugin built against an older minor ends its
    /// struct early; the fields after it stay zero). Nil, with a refusal, outside init or when too short.
    private func copy<T>(_ raw: UnsafePointer<T>, into value: inout T, minimum: Int, what: String) -> Int? {
        guard initializing else {
            log.append(
                LogMessage(
                    level: .error, text: "register called after init returned; floor_abi.h allows it only during init"))
            refusals.append("a \(what) registered after init")
            return nil
        }
        let size = Int(UnsafeRawPointer(raw).load(as: UInt32.self))
        guard size >= minimum else {
            refusals.append(
                "a \(what) with struct_size \(size), too small to hold its required fields (\(minimum) bytes)")
            return nil
        }
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: min(size, MemoryLayout<T>.size)))
        }
        return size
    }

    private func checkName(_ name: String, taken: [String], what: String) throws(FloorTestFailure) {
        guard !name.isEmpty else { throw FloorTestFailure("a \(what) with no name") }
        guard !name.unicodeScalars.contains(where: ControlCharacters.isUnsafe) else {
            throw FloorTestFailure("the \(what) name \(ControlCharacters.escaped(name)) holds a control character")
        }
        guard !taken.contains(name) else {
            throw FloorTestFailure("the \(what) '\(name)' is registered twice; the first is kept")
        }
    }

    // MARK: Floors

    /// The sample floor (floor_floor_type_t.sample_json) of floor type `type`, or nil when it has none.
    public func sampleJSON(of type: String) -> String? { floorTypes.first { $0.name == type }?.sampleJSON }

    /// The JSON Schema floor type `type` declares (ABI 1.3 schema_json), or nil when it declares none.
    public func schemaJSON(of type: String) -> String? { floorTypes.first { $0.name == type }?.schemaJSON }

    /// Every floor type's sample, decoded.
    public func samples() throws -> [TestFloor] {
        try floorTypes.compactMap { type in try type.sampleJSON.map { try decode($0) } }
    }

    /// A floor object of a page (`{"type":...}`), decoded as floorhost decodes it: the decoder gets exactly
    /// the object's bytes; a decoder that refuses it (or reports a problem and still returns a model) and
    /// a validator that refuses it throw with the problems they reported; problems a validator reports
    /// and accepts are the floor's `warnings`. The floor is then expanded into its rows.
    public func decode(_ json: String) throws -> TestFloor {
        try Self.calling {
            let decoded = try decodeModel(json)
            return try TestFloor(host: self, type: decoded.type, model: decoded.model, warnings: decoded.warnings)
        }
    }

    /// The floor type a floor object names, and a model of it decoded and validated. Holding the lock.
    func decodeModel(_ json: String) throws -> (type: Int, model: UnsafeMutableRawPointer, warnings: [ReportedProblem])
    {
        let bytes = Array(json.utf8)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            throw FloorTestFailure(
                "the floor is not valid JSON (floorhost would refuse the page): \(error.localizedDescription)")
        }
        guard let fields = object as? [String: Any] else {
            throw FloorTestFailure("a floor is a JSON object; this is \(json.prefix(40))")
        }
        guard let name = (fields["type"] ?? fields["pattern"]) as? String else {
            throw FloorTestFailure("the floor has no \"type\" (or \"pattern\") string naming its floor type")
        }
        guard let index = floorTypes.firstIndex(where: { $0.name == name }) else {
            throw FloorTestFailure(
                "plugin \(pluginID) registers no floor type '\(name)' (it registers \(floorTypeNames.map { "'\($0)'" }.joined(separator: ", ")))"
            )
        }
        let type = floorTypes[index]
        // An exact-size copy: the decoder gets no NUL terminator and nothing after the object, as on a page.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        defer { buffer.deallocate() }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) } }
        let report = DecodeReport()
        let model = report.withReport {
            type.decode.function(
                type.context, buffer, UInt64(bytes.count), $0.assumingMemoryBound(to: floor_report_t.self))
        }
        let problems = [ReportedProblem](report.errors)
        guard let model else {
            throw FloorTestFailure("\(type.decode.name) refused the floor: \(listed(problems))", problems: problems)
        }
        guard problems.isEmpty else {
            type.destroy.function(type.context, model)
            throw FloorTestFailure(
                "\(type.decode.name) reported \(listed(problems)) and still returned a model; floor_abi.h: a decoder that calls error must return NULL (floorhost leaves the floor out)",
                problems: problems)
        }
        guard let validate = type.validate else { return (index, model, []) }
        let verdict = DecodeReport()
        let valid = verdict.withReport {
            validate.function(type.context, model, $0.assumingMemoryBound(to: floor_report_t.self))
        }
        let reported = [ReportedProblem](verdict.errors)
        guard valid else {
            type.destroy.function(type.context, model)
            throw FloorTestFailure("\(validate.name) refused the floor: \(listed(reported))", problems: reported)
        }
        return (index, model, reported)
    }
}

func listed(_ problems: [ReportedProblem]) -> String {
    problems.isEmpty ? "no reason reported" : problems.map(\.description).joined(separator: "; ")
}
