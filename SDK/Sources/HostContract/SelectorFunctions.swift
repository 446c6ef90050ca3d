import CFloorABI

// The C types of the selectors floor_abi.h defines, one per FLOOR_SIG_*: what a host casts a registered
// floor_fn_t to once registration has checked its signature equal to the slot's. floorhost calls the
// per-row ones (height, cell, tappable) this way and the rest through libffi; the test kit calls them all.
public typealias DecodeFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UInt64, UnsafePointer<floor_report_t>?) ->
    UnsafeMutableRawPointer?
public typealias ExpandFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<floor_row_sink_t>?) -> Void
public typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
public typealias ValidateFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<floor_report_t>?) -> Bool
public typealias ExtendFunction =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
        UnsafePointer<floor_report_t>?, UnsafeMutablePointer<floor_extend_result_t>?
    ) -> Void
public typealias HeightFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, Double) -> Double
public typealias CellFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UnsafePointer<floor_canvas_t>?) -> Void
public typealias TappableFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64) -> UInt64
/// ABI 1.5: `uint64_t pages(ctx, model, row)`, FLOOR_SIG_PAGES.
public typealias PagesFunction =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64) -> UInt64
public typealias ActionFunction =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UInt64, UnsafePointer<floor_action_sink_t>?
    ) -> Bool
