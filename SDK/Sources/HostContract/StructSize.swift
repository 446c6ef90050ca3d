/// The one rule for reading a struct the other side of the ABI sized (docs/ABI.md, "Versions"): a field is
/// there when the struct's `struct_size` reaches the field's end; a field of a later minor than the one that
/// side compiled is absent, not zero. The host (its registry) and the test kit read plugin structs with it,
/// and fill a plugin's `floor_text_layout_t` with it. (FloorKit, which a plugin links without this module,
/// keeps the same three lines for the host's structs.)
public enum StructSize {
    /// Whether `size` bytes of a `T` reach the end of `field`.
    public static func reaches<T, Value>(_ size: Int, _ field: KeyPath<T, Value>) -> Bool {
        guard let offset = MemoryLayout<T>.offset(of: field) else { return false }
        return size >= offset + MemoryLayout<Value>.size
    }
}
