import CFloorABI
import Glibc

/// A floor plugin: its identity and the floor types it brings. A library holds exactly one, and exports it
/// through the ABI's entry symbol:
///
///     let plugin = FloorPlugin(id: "com.example.floor.coupon", name: "Coupon strip", version: "1.0.0",
///                              floors: [CouponStrip.self])
///
///     @_cdecl("floor_plugin_entry")
///     public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
///
/// Each plugin library links its own copy of this SDK, so the one-plugin-per-library rule lets the
/// ABI's context-free `init` find its plugin through a library-global.
public final class FloorPlugin: @unchecked Sendable {
    let floorKinds: [FloorKind]
    /// Leaked on purpose: the ABI says the descriptor lives as long as the process.
    private let descriptorStorage: UnsafeMutablePointer<floor_plugin_descriptor_t>

    public init(id: String, name: String, version: String, floors: [any FloorModel.Type]) {
        floorKinds = floors.map { FloorKind($0) }
        descriptorStorage = .allocate(capacity: 1)
        descriptorStorage.initialize(
            to: floor_plugin_descriptor_t(
                struct_size: UInt32(MemoryLayout<floor_plugin_descriptor_t>.size),
                abi_major: UInt32(FLOOR_ABI_MAJOR), abi_minor: UInt32(FLOOR_ABI_MINOR),
                id: permanentCString(id), name: permanentCString(name), version: permanentCString(version),
                init: { host in FloorPlugin.loaded?.register(with: host) ?? false }))
    }

    /// The ABI descriptor, for the entry function to return.
    public var descriptor: UnsafeRawPointer {
        FloorPlugin.loaded = self
        return UnsafeRawPointer(descriptorStorage)
    }

    /// Set when the host asks for the descriptor; the host calls `init` right after, on the same thread.
    nonisolated(unsafe) static var loaded: FloorPlugin?

    /// The host table `init` received, kept (as the ABI allows) for `TextMetrics` in height calculators.
    nonisolated(unsafe) static var host: UnsafePointer<floor_host_t>?

    private func register(with host: UnsafePointer<floor_host_t>?) -> Bool {
        guard let host else { return false }
        FloorPlugin.host = host
        for floor in floorKinds {
            for kind in floor.rowKinds {
                var rowType = floor_row_type_t(
                    struct_size: UInt32(MemoryLayout<floor_row_type_t>.size),
                    type_name: permanentCString(kind.name),
                    context: Unmanaged.passUnretained(kind).toOpaque(),
                    height: selector(
                        "heightFor\(kind.name):width:", FLOOR_SIG_HEIGHT,
                        unsafeBitCast(Thunks.height, to: floor_fn_t.self)),
                    cell: selector(
                        "cellFor\(kind.name):canvas:", FLOOR_SIG_CELL, unsafeBitCast(Thunks.cell, to: floor_fn_t.self)),
                    tappable: kind.action == nil
                        ? absent
                        : selector(
                            "tappableItemsFor\(kind.name):", FLOOR_SIG_TAPPABLE,
                            unsafeBitCast(Thunks.tappable, to: floor_fn_t.self)),
                    action: kind.action == nil
                        ? absent
                        : selector(
                            "actionFor\(kind.name):item:", FLOOR_SIG_ACTION,
                            unsafeBitCast(Thunks.action, to: floor_fn_t.self)),
                    pages: absent)
                kind.id = host.pointee.register_row_type(host, &rowType)
            }
            var floorType = floor_floor_type_t(
                struct_size: UInt32(MemoryLayout<floor_floor_type_t>.size),
                type_name: permanentCString(floor.name),
                context: Unmanaged.passUnretained(floor).toOpaque(),
                sample_json: permanentCString(floor.sampleJSON),
                decode: selector(
                    "decode\(floor.name):", FLOOR_SIG_DECODE, unsafeBitCast(Thunks.decode, to: floor_fn_t.self)),
                expand: selector(
                    "expand\(floor.name):", FLOOR_SIG_EXPAND, unsafeBitCast(Thunks.expand, to: floor_fn_t.self)),
                destroy: selector(
                    "destroy\(floor.name):", FLOOR_SIG_DESTROY, unsafeBitCast(Thunks.destroy, to: floor_fn_t.self)),
                validate: selector(
                    "validate\(floor.name):", FLOOR_SIG_VALIDATE, unsafeBitCast(Thunks.validate, to: floor_fn_t.self)),
                extend: floor.extend == nil
                    ? absent
                    : selector(
                        "extend\(floor.name):with:", FLOOR_SIG_EXTEND, unsafeBitCast(Thunks.extend, to: floor_fn_t.self)
                    ),
                schema_json: permanentCString(floor.schemaJSON),
                layouts: floor.layouts.bits, default_layout: floor.layouts.defaultLayout.bit,
                default_columns: UInt32(floor.layouts.columns), column_gap: floor.layouts.columnGap,
                line_gap: floor.layouts.lineGap, inset: floor.layouts.inset)
            _ = host.pointee.register_floor_type(host, &floorType)
            for problem in floor.schemaProblems { host.pointee.log(host, FLOOR_LOG_WARNING, problem) }
        }
        return true
    }

    private let absent = floor_selector_t(name: nil, signature: nil, fn: nil)

    private func selector(_ name: String, _ signature: String, _ fn: floor_fn_t) -> floor_selector_t {
        floor_selector_t(name: permanentCString(name), signature: permanentCString(signature), fn: fn)
    }
}

/// A C string that lives for the rest of the process, as the ABI requires of every registered string.
func permanentCString(_ s: String) -> UnsafePointer<CChar> {
    UnsafePointer(strdup(s)!)
}
