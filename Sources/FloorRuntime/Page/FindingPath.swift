import FloorCore

/// Where a walk's schema check is in the floor (FloorWalk.path): the keys and indexes from the floor down to
/// the value being checked, from which a finding's path ("items[2].tittle") is written. Pushed and popped for
/// every member a schema constrains, so it is a stack the walk owns alone, on storage of its own: no
/// copy-on-write check a push, as an array's would be. Grows as deep as the schema goes; never shrinks.
final class FindingPath {
    enum Part {
        case key(JSONStringSpan)
        case index(Int)
    }

    private var storage: UnsafeMutablePointer<Part>
    private var capacity = 16
    private(set) var count = 0

    init() { storage = .allocate(capacity: capacity) }

    deinit { storage.deallocate() }

    @inline(__always) func append(_ part: Part) {
        if count == capacity { grow() }
        (storage + count).initialize(to: part)
        count += 1
    }

    /// Precondition: not empty.
    @inline(__always) func removeLast() { count -= 1 }

    var last: Part? { count > 0 ? storage[count - 1] : nil }

    /// The parts, outermost first: read while nothing is pushed or popped.
    var parts: UnsafeBufferPointer<Part> { UnsafeBufferPointer(start: storage, count: count) }

    private func grow() {
        let larger = UnsafeMutablePointer<Part>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
