import Glibc

/// Inputs the harnesses step around because they reach a defect that issue 9 lists and another branch
/// fixes, so that a run measures everything else instead of stopping at the first known crash. Each guard
/// names its item; remove it when that fix has landed (the harness then reaches the input again).
/// Every skip is counted and the counts are printed when the fuzzer exits, so a run says how much it
/// stepped around. With FLOORKIT_FUZZ_REACH_KNOWN_DEFECTS=1 no input is stepped around (to see whether
/// a fix has landed, or to reproduce a defect under the fuzzer). Threading: libFuzzer runs inputs on one thread.
public enum KnownDefects {
    /// False when FLOORKIT_FUZZ_REACH_KNOWN_DEFECTS=1: every guard lets every input through.
    public static let guarding = environment("FLOORKIT_FUZZ_REACH_KNOWN_DEFECTS") != "1"

    /// Issue 9 item 4: ProductFeed's decoder traps (SIGILL) converting a numeric `price` whose value in
    /// cents does not fit an Int (1e308, 9223372036854775808, 1.2e29). Branch `bounds`.
    ///
    /// True when the bytes hold a JSON number of magnitude 1e16 or more (or one that overflows a Double).
    /// In JSON text a number always stands between structural characters or spaces, so every number is a
    /// maximal run of `0-9 + - . e E`; runs inside strings are tested too, which only errs on the safe side.
    public static func hasHugeNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard guarding else { return false }
        var i = 0
        while i < bytes.count {
            guard isNumberByte(bytes[i]) else { i += 1; continue }
            let start = i
            while i < bytes.count, isNumberByte(bytes[i]) { i += 1 }
            let run = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            if let value = Double(run), !(value.magnitude < 1e16) { return true }
        }
        return false
    }

    /// Issue 9 item 3: a page (through its `margin`s) can be arbitrarily tall, and the text renderer's
    /// memory and `--scroll-to end`'s steps grow with the height in points (a trap in an Int conversion,
    /// terabytes, or a scroll that never ends). Branch `bounds`. Pages taller than this are not scrolled or
    /// drawn. The shipped plugins' own rows are at most 184 points, so within libFuzzer's input sizes only
    /// a margin gets a page this tall.
    public static let maxPageHeight = guarding ? 1_000_000.0 : .infinity

    /// Issue 9 item 5: `next` is read from anywhere (absolute paths, `..`, devices and FIFOs, which block).
    /// Branch `pageroot`. The pipeline harness follows only a plain file name in the examples folder.
    public static func isPlainFileName(_ next: String) -> Bool {
        !guarding || !next.isEmpty && !next.contains("/") && next != "." && next != ".."
    }

    public enum Guard: String, CaseIterable, Sendable {
        case hugeNumber = "a number of magnitude >= 1e16 (item 4, ProductFeed price)"
        case tallPage = "a page taller than 1e6 points (item 3, heights and margins)"
        case nextOutsideFolder = "a next page that is not a plain file name (item 5, page root)"
    }

    nonisolated(unsafe) private static var skipped = [Int](repeating: 0, count: Guard.allCases.count)
    nonisolated(unsafe) private static var inputs = 0
    nonisolated(unsafe) private static var reporting = false

    /// Counts one input run (for the summary's denominator); installs the exit summary on first use.
    public static func countInput() {
        if !reporting {
            reporting = true
            atexit { KnownDefects.printSummary() }
        }
        inputs += 1
    }

    /// Notes that an input was stepped around for `reason`.
    public static func skip(_ reason: Guard) {
        skipped[Guard.allCases.firstIndex(of: reason)!] += 1
    }

    static func printSummary() {
        let steps = Guard.allCases.enumerated().filter { skipped[$0.offset] > 0 }
            .map { "\(skipped[$0.offset]) for \($0.element.rawValue)" }
        printError("\(inputs) inputs run; stepped around known defects: \(steps.isEmpty ? "none" : steps.joined(separator: ", "))")
    }

    private static func isNumberByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }
}
