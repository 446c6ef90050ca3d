import FloorCore
import Foundation
import Testing

/// HugePages advises the whole 2 MiB extents of a large buffer (MADV_HUGEPAGE, seen as "hg" among the
/// mapping's VmFlags in /proc/self/smaps) and leaves a small one alone.
struct HugePagesTests {
    /// The VmFlags of the mapping holding `address`, from /proc/self/smaps.
    static func flags(at address: UInt) throws -> [Substring] {
        // Read to its end (a /proc file says it is empty).
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), !line.hasSuffix(":"), fields.count >= 5,
                let low = UInt(range.split(separator: "-")[0], radix: 16),
                let high = UInt(range.split(separator: "-")[1], radix: 16)
            {
                inside = low <= address && address < high
            } else if inside, line.hasPrefix("VmFlags:") {
                return fields.dropFirst().map { $0 }
            }
        }
        return []
    }

    /// An array of `count` bytes read as PageRoot reads a page: advised (the answer) before anything is written.
    static func filled(_ count: Int) -> (bytes: [UInt8], advised: Range<UInt>?) {
        var advised: Range<UInt>?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            advised = HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            buffer.initialize(repeating: 7)
            initialized = count
        }
        return (bytes, advised)
    }

    @Test func aLargeBuffersWholeExtentsAreAdvised() throws {
        let (bytes, advised) = Self.filled(8 << 20)
        let range = try #require(advised)
        let base = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let inner = (base + UInt(HugePages.extent - 1)) & ~UInt(HugePages.extent - 1)
        #expect(range.lowerBound == inner)
        #expect(try Self.flags(at: inner).contains("hg"))
        #expect(bytes.count == 8 << 20 && bytes.first == 7 && bytes.last == 7)
    }

    /// Nothing is advised for a buffer under two extents. (Its mapping's flags are not the test: in this
    /// process, whose malloc keeps large blocks, a small buffer may lie where an advised one was freed.)
    @Test func aSmallBufferIsLeftAlone() throws {
        #expect(Self.filled(1 << 20).advised == nil)
        let (large, advised) = Self.filled(5 << 20)
        let range = try #require(advised)
        let base = large.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(range.lowerBound >= base && range.upperBound <= base + UInt(large.count))
        #expect(range.count % HugePages.extent == 0 && range.count >= HugePages.extent)
    }
}
