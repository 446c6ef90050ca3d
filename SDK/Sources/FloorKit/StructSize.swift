import CFloorABI

/// Whether a struct the host sized reaches the end of `field` (docs/ABI.md, "Versions"): a field of a later
/// minor than the host's is absent, not zero. The same rule as HostContract's StructSize, which the host and
/// the test kit use; a plugin links FloorKit alone, so it keeps its own copy of these lines.
enum StructSize {
    static func reaches<T, Value>(_ size: UInt32, _ field: KeyPath<T, Value>) -> Bool {
        guard let offset = MemoryLayout<T>.offset(of: field) else { return false }
        return Int(size) >= offset + MemoryLayout<Value>.size
    }
}
