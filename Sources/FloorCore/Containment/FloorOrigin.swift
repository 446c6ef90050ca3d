/// Where a floor came from: its page's ordinal in the run and its index in that page's `floors`.
public struct FloorOrigin: Hashable, Sendable {
    public let page: Int32
    public let floor: Int32

    public init(page: Int32, floor: Int32) {
        (self.page, self.floor) = (page, floor)
    }
}
