/// Something wrong with a floor's data (the seed's `TemplateValidationProtocol`), or an item dropped while
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
public protocol ItemsFloor: ExtendableFloor {
    associatedtype Item: FloorItem
    var items: [Item] { get set }
}

extension ItemsFloor {
    public mutating func extend(with next: Self) -> [FloorProblem] {
        var seen = Set(items.map(\.id))
        var dropped: [FloorProblem] = []
        for (index, item) in next.items.enumerated() {
            if seen.insert(item.id).inserted {
                items.append(item)
            } else {
                dropped.append(FloorProblem("items[\(index)]", "duplicate item id '\(item.id)' dropped"))
            }
        }
        return dropped
    }
}
