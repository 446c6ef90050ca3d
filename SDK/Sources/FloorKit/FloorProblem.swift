/// Something wrong with a floor's data (data checks before drawing), or an item dropped while
/// extending it. `path` is relative to the floor object: "items[2].img".
public struct FloorProblem: Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
}

extension String {
    /// Empty or only spaces and tabs (Unicode's space separators): what a validator calls "is empty".
    /// Scalar by scalar and stopping at the first visible one, so checking every item of a large feed is
    /// cheap (Foundation's trimming builds a new string per call).
    public var isBlank: Bool {
        unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }
}

extension FloorModel {
    /// No problems: the default for floors without data checks.
    public func validate() -> [FloorProblem] { [] }
}

/// A floor a next page can continue: a floor there with the same `id` is decoded and handed to `extend`.
public protocol ExtendableFloor: FloorModel {
    /// Appends `next`'s content. Returns what was dropped (duplicate items), each with its path in `next`.
    mutating func extend(with next: Self) -> [FloorProblem]
}

/// An item with an identity, for floors whose items a next page continues.
public protocol FloorItem {
    var id: String { get }
}

/// A floor that is a list of identified items: extending appends the next page's items and drops any
/// whose id is already there. Rows must be one per item (or stable for existing items) for the host to
/// keep their heights.
///
/// A next page extends an ItemsFloor through the SDK, not through `extend(with:)`: the SDK keeps the
/// floor's item ids between pages, so each page costs O(its items), not O(items in the floor). When
/// `expand(items:into:)` lists the appended items' rows, expanding again costs O(rows added) too; a floor
/// that needs another way of extending conforms to ExtendableFloor instead.
public protocol ItemsFloor: ExtendableFloor {
    associatedtype Item: FloorItem
    var items: [Item] { get set }
    /// Lists the content rows of `items[range]` alone, exactly as `expand(into:)` lists them, and returns
    /// true; only for floors whose content rows are their items' rows in item order. The default returns
    /// false: the SDK then expands the whole floor after each next page.
    func expand(items range: Range<Int>, into rows: inout FloorRows<Self>) -> Bool
}

extension ItemsFloor {
    public func expand(items range: Range<Int>, into rows: inout FloorRows<Self>) -> Bool { false }

    public mutating func extend(with next: Self) -> [FloorProblem] {
        var seen = Set(items.lazy.map(\.id))
        return append(next.items, seen: &seen)
    }

    /// Appends each of `incoming` whose id is not in `seen` (adding it there) and reports the others,
    /// with their path in the next page's floor. O(incoming).
    mutating func append(_ incoming: [Item], seen: inout Set<String>) -> [FloorProblem] {
        var dropped: [FloorProblem] = []
        // No reserveCapacity here: reserving exactly what each page needs would copy every item each page.
        for (index, item) in incoming.enumerated() {
            if seen.insert(item.id).inserted {
                items.append(item)
            } else {
                dropped.append(FloorProblem("items[\(index)]", "duplicate item id '\(item.id)' dropped"))
            }
        }
        return dropped
    }
}
