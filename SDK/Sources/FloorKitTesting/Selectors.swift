import CFloorABI
import HostContract

/// One registered selector: its name (for messages) and its function, cast to its C type.
struct Selector<Function> {
    let name: String
    let function: Function
}

/// What a floor type registered (floor_floor_type_t), checked.
struct RegisteredFloorType {
    let name: String
    let context: UnsafeMutableRawPointer?
    let sampleJSON: String?
    let schemaJSON: String?
    let decode: Selector<DecodeFunction>
    let expand: Selector<ExpandFunction>
    let destroy: Selector<DestroyFunction>
    let validate: Selector<ValidateFunction>?
    let extend: Selector<ExtendFunction>?
}

/// What a row type registered (floor_row_type_t), checked.
struct RegisteredRowType {
    let name: String
    let context: UnsafeMutableRawPointer?
    let height: Selector<HeightFunction>
    let cell: Selector<CellFunction>
    let tappable: Selector<TappableFunction>?
    let action: Selector<ActionFunction>?
    /// ABI 1.5, optional: the row's horizontal pages.
    let pages: Selector<PagesFunction>?
}

/// Checks a selector against its slot's FLOOR_SIG_* and casts it: nil when not provided (fn NULL);
/// throws the host's refusal when provided with another signature, or missing where required.
func checked<Function>(
    _ selector: floor_selector_t, slot: String, signature: String, required: Bool,
    as type: Function.Type
) throws(FloorTestFailure) -> Selector<Function>? {
    let name = selector.name.map { String(cString: $0) } ?? slot
    guard let fn = selector.fn else {
        if required { throw FloorTestFailure("\(slot) has no function (fn NULL); floor_abi.h requires one") }
        return nil
    }
    let given = selector.signature.map { String(cString: $0) }
    guard given == signature else {
        throw FloorTestFailure(
            "\(name) (\(slot)) has signature \(given.map { "\"\($0)\"" } ?? "NULL"), but the slot's is \"\(signature)\""
        )
    }
    return Selector(name: name, function: unsafeBitCast(fn, to: type))
}
