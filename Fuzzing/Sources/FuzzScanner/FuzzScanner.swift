// libFuzzer target `scanner`: the page scanner (FloorRuntime/Page/PageScanner.swift) on arbitrary bytes.
//
// The scanner reads borrowed bytes through raw pointers, so ASan (an exactly-sized copy of every input)
// catches any read past the end. Beyond "no crash", each input checks the scanner's contract:
// - an error's offset lies in the input (or at its end), and its line and column are 1-based;
// - a scanned page's floors are in order, inside the input, and each floor's bytes are one JSON value
//   that the SDK's tape (FloorKit/JSON/JSONTape.swift), the plugins' own parser, accepts too, unless it
//   is nested deeper than the tape's limit (which is lower than the scanner's).
// A broken contract traps (precondition), and libFuzzer reports it as a crash with the input.

@testable import FloorKit
@testable import FloorRuntime
@testable import FloorSession

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScanner(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let spec: PageSpec
    do {
        spec = try PageScanner.scan(bytes)
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside 0...\(size)")
        precondition(error.line >= 1 && error.column >= 1, "error at \(error.line):\(error.column)")
        precondition(!error.message.isEmpty, "an error without a message")
        return 0
    }
    var end = 0
    for (position, floor) in spec.floors.enumerated() {
        precondition(floor.index == position, "floor \(position) says it is floors[\(floor.index)]")
        precondition(
            floor.bytes.lowerBound >= end && floor.bytes.upperBound <= size && !floor.bytes.isEmpty,
            "floors[\(position)] bytes \(floor.bytes) out of order or outside 0..<\(size)")
        end = floor.bytes.upperBound
        let slice = UnsafeRawBufferPointer(rebasing: bytes[floor.bytes])
        do {
            _ = try JSONTape(slice)
        } catch {
            precondition(
                error.message.hasPrefix("nested deeper"),
                "floors[\(position)] passed the scanner but not the tape: \(error.message) at byte \(error.offset)")
        }
    }
    return 0
}
