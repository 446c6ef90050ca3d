import Synchronization

/// Which bytes the host's JSON readers walked, for tests that hold the host to one walk per floor: bound
/// with `JSONWalkLog.$current.withValue(log) { ... }`, every walk that starts over some bytes (a page scan,
/// a re-check of part of a floor, a standalone FloorSignature or SchemaValidator call) records its range.
/// Unbound (always, outside such tests) it costs one task-local read per walk and records nothing.
package final class JSONWalkLog: Sendable {
    @TaskLocal package static var current: JSONWalkLog?

    /// A walked range, as addresses (so that walks over slices of one buffer compare).
    package struct Walk: Sendable, Equatable {
        package let start: UInt
        package let count: Int
        package let what: String

        package func overlaps(_ other: UnsafeRawBufferPointer) -> Bool {
            guard let base = other.baseAddress else { return false }
            let otherStart = UInt(bitPattern: base)
            return start < otherStart + UInt(other.count) && otherStart < start + UInt(count)
        }
    }

    private let recorded = Mutex<[Walk]>([])

    package init() {}

    package var walks: [Walk] { recorded.withLock { $0 } }

    /// Records a walk of `count` bytes at `start` when a log is bound.
    @inline(__always) package static func record(_ start: UnsafeRawPointer, count: Int, _ what: String) {
        guard let log = current else { return }
        log.recorded.withLock { $0.append(Walk(start: UInt(bitPattern: start), count: count, what: what)) }
    }
}
