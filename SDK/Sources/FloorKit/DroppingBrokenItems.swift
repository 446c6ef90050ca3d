/// A floor's list of items in which an item that does not decode is left out, not the whole floor:
///
///     @DroppingBrokenItems var items: [Product]
///
/// Without it one bad product (a price that is `true`, a missing title) makes the decoder refuse the floor,
/// and the page loses every product of the feed. With it the other items decode and render, and each item
/// left out is a warning with its JSON path in the floor and the decoder's reason
/// ("items[3].price: expected a string or a number, found bool; item left out"), which the host prefixes
/// with the floor's path in the page ("floors[2].items[3].price ...") and `floorhost check` reports.
///
/// The list itself must still be an array: `items` missing or of another type refuses the floor as before.
/// The warnings reach the host through the floor type's validator (floor_abi.h: problems a validator reports
/// while returning true are warnings, the floor is kept), which the SDK registers for every floor type; the
/// model's own `validate()` still decides whether the floor is shown.
@propertyWrapper
public struct DroppingBrokenItems<Item: Decodable>: Decodable {
    public var wrappedValue: [Item]

    public init(wrappedValue: [Item]) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        var list = try decoder.unkeyedContainer()
        var items: [Item] = []
        if let count = list.count { items.reserveCapacity(count) }
        while !list.isAtEnd {
            let index = list.currentIndex
            do {
                items.append(try list.decode(Item.self))
            } catch {
                // The SDK's decoder has moved past a failed element; one that has not is moved on here.
                if list.currentIndex == index { _ = try list.superDecoder() }
                let problem = DecodingProblem(error)
                let path = problem.path.isEmpty ? DecodingProblem.path(decoder.codingPath) + "[\(index)]" : problem.path
                LeftOutItems.current?.problems.append(FloorProblem(path, "\(problem.message); item left out"))
            }
        }
        wrappedValue = items
    }
}

/// Collects the items DroppingBrokenItems leaves out during one floor's decode, for the SDK to report.
/// Confined to the thread of that one decode call (a task-local value, set only around it), hence
/// `@unchecked Sendable`.
final class LeftOutItems: @unchecked Sendable {
    @TaskLocal static var current: LeftOutItems?
    var problems: [FloorProblem] = []

    /// Runs `decode` with a fresh collector and returns its result with the items it left out.
    static func collecting<T>(_ decode: () throws -> T) rethrows -> (T, [FloorProblem]) {
        let collector = LeftOutItems()
        let value = try $current.withValue(collector) { try decode() }
        return (value, collector.problems)
    }
}
