import CFFI
import CFloorABI

/// A value passed to or returned from a selector performed generically.
enum SelectorValue: Equatable, @unchecked Sendable {
    case void
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case pointer(UnsafeMutableRawPointer?)
}

/// Performs any selector by its declared signature through libffi: the host's `performSelector:`.
/// The call interface (ffi_cif) is prepared once per selector and kept for the life of the process.
/// Threading: one thread at a time, like every plugin call.
final class SelectorInvoker: @unchecked Sendable {
    enum Failure: Error, Equatable { case argumentCount(expected: Int, got: Int), argumentType(index: Int, expected: Character) }

    let signature: Signature
    private let function: floor_fn_t
    private var cif = ffi_cif()
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    init(_ selector: Selector) {
        signature = selector.signature
        function = selector.function
        argumentTypes = .allocate(capacity: max(1, selector.signature.arguments.count))
        for (i, type) in selector.signature.arguments.enumerated() { argumentTypes[i] = Self.ffiType(type) }
        let status = ffi_prep_cif(&cif, FFI_DEFAULT_ABI, UInt32(selector.signature.arguments.count),
                                  Self.ffiType(selector.signature.result), argumentTypes)
        precondition(status == FFI_OK, "ffi_prep_cif refused a signature Signature accepted: \(selector.signature)")
    }

    /// Calls the selector with `arguments`, which must match its signature one to one.
    func perform(_ arguments: [SelectorValue]) throws(Failure) -> SelectorValue {
        let types = signature.arguments
        guard arguments.count == types.count else { throw .argumentCount(expected: types.count, got: arguments.count) }
        // Each argument gets an 8-byte slot (every ABI type fits); libffi reads each at its own width.
        let slots = UnsafeMutableRawPointer.allocate(byteCount: 8 * max(1, types.count), alignment: 8)
        let pointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(1, types.count))
        defer { slots.deallocate(); pointers.deallocate() }
        for (i, (type, value)) in zip(types, arguments).enumerated() {
            let slot = slots + 8 * i
            switch (type, value) {
            case (.bool, .bool(let v)): slot.storeBytes(of: v, as: Bool.self)
            case (.int32, .int(let v)): slot.storeBytes(of: Int32(truncatingIfNeeded: v), as: Int32.self)
            case (.uint32, .uint(let v)): slot.storeBytes(of: UInt32(truncatingIfNeeded: v), as: UInt32.self)
            case (.int64, .int(let v)): slot.storeBytes(of: v, as: Int64.self)
            case (.uint64, .uint(let v)): slot.storeBytes(of: v, as: UInt64.self)
            case (.double, .double(let v)): slot.storeBytes(of: v, as: Double.self)
            case (.pointer, .pointer(let v)): slot.storeBytes(of: v, as: UnsafeMutableRawPointer?.self)
            default: throw .argumentType(index: i, expected: type.rawValue)
            }
            pointers[i] = slot
        }
        // Integer results narrower than a register come back widened to ffi_arg.
        var result: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &result) { out in
            ffi_call(&cif, function, out.baseAddress, pointers)
        }
        return withUnsafeBytes(of: result) { out in
            switch signature.result {
            case .void: .void
            case .bool: .bool(out.load(as: ffi_arg.self) & 0xff != 0)
            case .int32: .int(Int64(Int32(truncatingIfNeeded: out.load(as: ffi_arg.self))))
            case .uint32: .uint(UInt64(UInt32(truncatingIfNeeded: out.load(as: ffi_arg.self))))
            case .int64: .int(out.load(as: Int64.self))
            case .uint64: .uint(out.load(as: UInt64.self))
            case .double: .double(out.load(as: Double.self))
            case .pointer: .pointer(out.load(as: UnsafeMutableRawPointer?.self))
            }
        }
    }

    private static func ffiType(_ type: Signature.ValueType) -> UnsafeMutablePointer<ffi_type> {
        switch type {
        case .void: floor_ffi_void()
        case .bool: floor_ffi_uint8()
        case .int32: floor_ffi_sint32()
        case .uint32: floor_ffi_uint32()
        case .int64: floor_ffi_sint64()
        case .uint64: floor_ffi_uint64()
        case .double: floor_ffi_double()
        case .pointer: floor_ffi_pointer()
        }
    }
}
