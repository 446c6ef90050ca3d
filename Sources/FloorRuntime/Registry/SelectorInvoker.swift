import CFFI
import CFloorABI

/// A value passed to or returned from a selector performed generically.
package enum SelectorValue: Equatable, @unchecked Sendable {
    case void
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case pointer(UnsafeMutableRawPointer?)
}

/// Performs any selector by its declared signature through libffi: the host's `performSelector:`.
///
/// Everything a call needs is prepared once, in `init`, and freed with the invoker (a selector keeps its
/// invoker, the registry its selectors): the call interface (ffi_cif), one 8-byte argument slot per
/// argument and the array of pointers to those slots that `ffi_call` reads. A call checks its arguments
/// against the signature, stores them into the slots and calls: it allocates nothing.
///
/// Threading: one call at a time, like every plugin call; the slots are shared by every call of this
/// invoker, so two threads calling it at once would mix their arguments. A selector may perform this
/// same invoker again from inside the call (a plugin calling back into the host): `ffi_call` has read
/// every slot before the function runs, and each call's result is its own.
package final class SelectorInvoker: @unchecked Sendable {
    package enum Failure: Error, Equatable {
        case argumentCount(expected: Int, got: Int)
        case argumentType(index: Int, expected: Character)
    }

    package let signature: Signature
    private let function: floor_fn_t
    /// Heap-allocated so that its address, which libffi keeps, never changes; it points at `argumentTypes`.
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    /// 8 bytes per argument (every ABI type fits); libffi reads each at its own width.
    private let slots: UnsafeMutableRawPointer
    /// `slots + 8 * i` for argument `i`, as `ffi_call` wants them.
    private let slotPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    package init(_ selector: Selector) {
        signature = selector.signature
        function = selector.function
        let count = selector.signature.arguments.count
        argumentTypes = .allocate(capacity: max(1, count))
        slots = .allocate(byteCount: 8 * max(1, count), alignment: 8)
        slotPointers = .allocate(capacity: max(1, count))
        for (i, type) in selector.signature.arguments.enumerated() {
            argumentTypes[i] = Self.ffiType(type)
            slotPointers[i] = slots + 8 * i
        }
        cif = .allocate(capacity: 1)
        cif.initialize(to: ffi_cif())
        let status = ffi_prep_cif(
            cif, FFI_DEFAULT_ABI, UInt32(count), Self.ffiType(selector.signature.result), argumentTypes)
        precondition(status == FFI_OK, "ffi_prep_cif refused a signature Signature accepted: \(selector.signature)")
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
        slots.deallocate()
        slotPointers.deallocate()
    }

    // Calling: one `perform` per argument count, up to five, the most any ABI selector takes
    // (FLOOR_SIG_ACTION, FLOOR_SIG_EXTEND); every registered selector has an ABI signature, because
    // registration compares it with its slot's. The arguments are parameters, not an array: an array
    // literal, even one the optimizer puts on the stack (it does: no malloc), costs a runtime object set-up
    // and release per call. Measured in the dispatch benchmark (height + cell through the invokers), same
    // runs: 195-197 ns a row with an array, 157-159 with parameters.
    // Each must match the signature one to one: a different count or a value of another type throws before
    // the function is called.

    package func perform() throws(Failure) -> SelectorValue {
        try expectArguments(0)
        return call()
    }

    package func perform(_ a0: SelectorValue) throws(Failure) -> SelectorValue {
        try expectArguments(1)
        try store(a0, at: 0)
        return call()
    }

    package func perform(_ a0: SelectorValue, _ a1: SelectorValue) throws(Failure) -> SelectorValue {
        try expectArguments(2)
        try store(a0, at: 0)
        try store(a1, at: 1)
        return call()
    }

    package func perform(_ a0: SelectorValue, _ a1: SelectorValue, _ a2: SelectorValue) throws(Failure) -> SelectorValue
    {
        try expectArguments(3)
        try store(a0, at: 0)
        try store(a1, at: 1)
        try store(a2, at: 2)
        return call()
    }

    package func perform(_ a0: SelectorValue, _ a1: SelectorValue, _ a2: SelectorValue, _ a3: SelectorValue)
        throws(Failure) -> SelectorValue
    {
        try expectArguments(4)
        try store(a0, at: 0)
        try store(a1, at: 1)
        try store(a2, at: 2)
        try store(a3, at: 3)
        return call()
    }

    package func perform(
        _ a0: SelectorValue, _ a1: SelectorValue, _ a2: SelectorValue, _ a3: SelectorValue,
        _ a4: SelectorValue
    ) throws(Failure) -> SelectorValue {
        try expectArguments(5)
        try store(a0, at: 0)
        try store(a1, at: 1)
        try store(a2, at: 2)
        try store(a3, at: 3)
        try store(a4, at: 4)
        return call()
    }

    private func expectArguments(_ count: Int) throws(Failure) {
        guard count == signature.arguments.count else {
            throw .argumentCount(expected: signature.arguments.count, got: count)
        }
    }

    // `store` and `call` are inlined into each `perform`, so that a call is one function: the dispatch
    // benchmark's ffi path (height + cell) took 184-186 ns a row without, 157-159 with (libffi prepared
    // once, from C: 135-143 in the same runs).

    /// Writes argument `index` into its slot, or throws when `value` is not of the signature's type there.
    @inline(__always)
    private func store(_ value: SelectorValue, at index: Int) throws(Failure) {
        let slot = slots + 8 * index
        let type = signature.arguments[index]
        switch (type, value) {
        case (.bool, .bool(let v)): slot.storeBytes(of: v, as: Bool.self)
        case (.int32, .int(let v)): slot.storeBytes(of: Int32(truncatingIfNeeded: v), as: Int32.self)
        case (.uint32, .uint(let v)): slot.storeBytes(of: UInt32(truncatingIfNeeded: v), as: UInt32.self)
        case (.int64, .int(let v)): slot.storeBytes(of: v, as: Int64.self)
        case (.uint64, .uint(let v)): slot.storeBytes(of: v, as: UInt64.self)
        case (.double, .double(let v)): slot.storeBytes(of: v, as: Double.self)
        case (.pointer, .pointer(let v)): slot.storeBytes(of: v, as: UnsafeMutableRawPointer?.self)
        default: throw .argumentType(index: index, expected: type.rawValue)
        }
    }

    /// Calls the function with the arguments in the slots.
    @inline(__always)
    private func call() -> SelectorValue {
        // Integer results narrower than a register come back widened to ffi_arg.
        var result: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &result) { out in
            ffi_call(cif, function, out.baseAddress, slotPointers)
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
