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

    @Test func aLargeReservationsWholeExtentsAreAdvised() throws {
        var buffer: [UInt8] = []
        HugePages.reserve(8 << 20, at: &buffer)
        #expect(buffer.isEmpty && buffer.capacity >= 8 << 20)
        let base = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let inner = (base + UInt(HugePages.extent - 1)) & ~UInt(HugePages.extent - 1)
        #expect(try Self.flags(at: inner).contains("hg"))
        buffer.append(contentsOf: repeatElement(7, count: 8 << 20))
        #expect(buffer.count == 8 << 20 && buffer.first == 7 && buffer.last == 7)
    }

    /// Nothing is advised for a buffer under two extents. (Its mapping's flags are not the test: in this
    /// process, whose malloc keeps large blocks, a small buffer may lie where an advised one was freed.)
    @Test func aSmallBufferIsLeftAlone() throws {
        var buffer: [UInt8] = []
        #expect(HugePages.reserve(1 << 20, at: &buffer) == nil)
        #expect(buffer.capacity >= 1 << 20)
        var large: [UInt8] = []
        let advised = try #require(HugePages.reserve(5 << 20, at: &large))
        let base = large.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(advised.lowerBound >= base && advised.upperBound <= base + UInt(large.capacity))
        #expect(advised.count % HugePages.extent == 0 && advised.count >= HugePages.extent)
    }
}
