// libFuzzer target `tape`: the SDK's tape decoder (FloorKit/JSON: JSONTape + TapeDecoder) through the real
// floor models, on arbitrary bytes. Each input is handed, as a floor object, to the decode selector of every
// floor type the shipped plugins register (Focus, IconGrid, ProductFeed, Title), exactly as the host's page
// decoder hands a floor's bytes over: through the C ABI, into the plugin library built with the SDK. A model
// that decodes is expanded, validated and destroyed, so what the decoder built is used and freed.
//
// Unlike the page pipeline (where the scanner has already validated the page), here the tape itself sees
// malformed JSON. Any refusal must come back as a report with a reason; a trap, an overflow or an
// out-of-bounds read is a finding.
//
// Seeds: with FLOORKIT_FUZZ_WRITE_SEEDS=DIR and FLOORKIT_FUZZ_EXAMPLES=DIR, the harness writes every floor
// object of the example pages, and each floor type's sample JSON, into DIR as separate files, and exits.

import CFloorABI
import FuzzSupport
import Glibc
import HostContract

@testable import FloorRuntime
@testable import FloorSession

/// The shipped floor types, resolved once.
nonisolated(unsafe) private var floorTypes: [Registry.FloorType] = []

@_cdecl("LLVMFuzzerInitialize")
public func fuzzTapeInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let registry = ShippedPlugins.host.registry
    floorTypes = registry.floorTypeNames.compactMap { registry.floorTypeID(named: $0) }.map {
        registry.floorTypes[Int($0)]
    }
    if let seeds = environment("FLOORKIT_FUZZ_WRITE_SEEDS") {
        writeSeeds(into: seeds)
        exit(0)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTape(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let registry = ShippedPlugins.host.registry
    let json = UnsafeMutableRawPointer(mutating: data)
    for type in floorTypes {
        let report = DecodeReport()
        let model: UnsafeMutableRawPointer? = report.withReport { report in
            guard
                case .pointer(let model)? = try? type.decode.invoker.perform(
                    .pointer(type.context), .pointer(json), .uint(UInt64(size)), .pointer(report))
            else { return nil }
            return model
        }
        guard let model else {
            precondition(!report.errors.isEmpty, "\(type.name) refused the input without a reason")
            precondition(
                report.errors.allSatisfy { !$0.message.isEmpty }, "\(type.name) refused the input with an empty reason")
            continue
        }
        let rows = RowTypeCheck(registry: registry, plugin: type.plugin)
        rows.withSink { sink in
            _ = try? type.expand.invoker.perform(.pointer(type.context), .pointer(model), .pointer(sink))
        }
        precondition(rows.foreign == nil, "\(type.name) listed row type \(rows.foreign!), which it did not register")
        if let validate = type.validate {
            let problems = DecodeReport()
            let valid = problems.withReport { report in
                (try? validate.invoker.perform(.pointer(type.context), .pointer(model), .pointer(report)))
                    == .bool(true)
            }
            precondition(valid || !problems.errors.isEmpty, "\(type.name) found the model invalid without a reason")
        }
        _ = try? type.destroy.invoker.perform(.pointer(type.context), .pointer(model))
    }
    return 0
}

/// The floor_row_sink_t expand writes into: checks every row's type id belongs to the floor's own plugin.
/// Valid only inside `withSink`.
private final class RowTypeCheck {
    let registry: Registry
    let plugin: Int
    var foreign: Int32?

    init(registry: Registry, plugin: Int) {
        self.registry = registry
        self.plugin = plugin
    }

    func withSink(_ body: (UnsafeMutableRawPointer) -> Void) {
        // Zeroed, then the 1.0 fields set: fields a newer ABI appends (nothing to reuse) stay zero.
        var sink = floor_row_sink_t()
        sink.host_data = Unmanaged.passUnretained(self).toOpaque()
        sink.add = { sink, type, _ in
            guard let data = sink?.pointee.host_data else { return }
            let check = Unmanaged<RowTypeCheck>.fromOpaque(data).takeUnretainedValue()
            if !(0..<Int32(check.registry.rowTypes.count)).contains(type)
                || check.registry.rowTypes[Int(type)].plugin != check.plugin
            {
                check.foreign = type
            }
        }
        withUnsafeMutablePointer(to: &sink) { body(UnsafeMutableRawPointer($0)) }
    }
}

/// Writes the seed corpus: each floor object of each example page, and each floor type's sample.
private func writeSeeds(into folder: String) {
    guard let examples = environment("FLOORKIT_FUZZ_EXAMPLES") else {
        fail("set FLOORKIT_FUZZ_EXAMPLES with FLOORKIT_FUZZ_WRITE_SEEDS")
    }
    func write(_ bytes: some Collection<UInt8>, _ name: String) {
        let path = "\(folder)/\(name)"
        guard let file = fopen(path, "wb") else { fail("\(path): cannot write a seed") }
        let array = Array(bytes)
        _ = array.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
    for type in floorTypes {
        if let sample = type.sampleJSON { write(sample.utf8, "sample-\(type.name).json") }
    }
    guard let dir = opendir(examples) else { fail("\(examples): cannot list the example pages") }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        guard name.hasSuffix(".json"), let page = readFile("\(examples)/\(name)"),
            let spec = try? PageScanner.scan(page)
        else { continue }
        for floor in spec.floors { write(page[floor.bytes], "\(name.dropLast(5))-floor\(floor.index).json") }
    }
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return bytes
}
