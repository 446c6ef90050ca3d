/// A row model type: the unit the host dispatches on. Its name is registered with the host together with
/// a height calculator (what `tableView:heightForRowAtIndexPath:` answers on iOS) and a cell selector
/// (`tableView:cellFor<Class>:`). Names are unique across every plugin a host loads.
///
/// Contracts the conformance suite checks: `height` is finite, >= 0 and deterministic for a width;
/// `cell` draws only inside the canvas and draws the same thing for the same row every time.
///
/// `Floor` is the FloorModel whose `rowTypes` list this row type, a requirement left unsaid here: a plugin
/// makes a row type's class metadata from its mangled name, and the runtime checks a stated requirement by
/// looking the conformance up, which the first time scans every conformance record of every library loaded
/// (about 4,800), once for each plugin's first row type at every load (BENCHMARKS.md, "A process's start:
/// ArgumentParser and the plugins' load").
public final class RowType<Floor>: @unchecked Sendable {
    public let name: String
    let height: (Floor, Int, Double) -> Double
    let cell: (Floor, Int, Canvas) -> Void
    let taps: ((Floor, Int) -> Int)?
    let action: ((Floor, Int, Int) -> Action?)?
    let pages: ((Floor, Int) -> Int)?
    /// How many things every row of this type has to tap when that does not depend on the row (a row type
    /// with an action and no `taps`: 1): answered without calling into the model.
    let everyRowTaps: Int?
    /// The row type as its floor type registered it (FloorKind), whose id `FloorRows` lists; nil for a row
    /// type no floor type lists in `rowTypes`. Set once, while the plugin is made, before any expand; not
    /// retained (read once a row): the FloorKind holding the RowKind lives as long as the plugin.
    var registered: Unmanaged<RowKind>?

    /// - Parameters:
    ///   - height: the row's height in points for (floor, item, width).
    ///   - cell: draws (floor, item) into the canvas, whose size is the row's width and height.
    ///   - taps: how many things in the row a tap can hit (icons in a grid line); nil: not tappable.
    ///   - action: what tapping thing `tap` of (floor, item) does, or nil when nothing.
    ///   - pages: how many horizontal pages the row shows (a carousel: one a banner), 1 to 64
    ///     (FLOOR_PAGES_MAX); nil: one. The cell draws `canvas.page` and gives the frames of that page's
    ///     things; `tap` numbers the things across all pages (banner i is thing i).
    public init(
        _ name: String,
        height: @escaping (_ floor: Floor, _ item: Int, _ width: Double) -> Double,
        cell: @escaping (_ floor: Floor, _ item: Int, _ canvas: Canvas) -> Void,
        taps: ((_ floor: Floor, _ item: Int) -> Int)? = nil,
        action: ((_ floor: Floor, _ item: Int, _ tap: Int) -> Action?)? = nil,
        pages: ((_ floor: Floor, _ item: Int) -> Int)? = nil
    ) {
        self.name = name
        self.height = height
        self.cell = cell
        self.taps = action == nil ? nil : (taps ?? { _, _ in 1 })
        everyRowTaps = action != nil && taps == nil ? 1 : nil
        self.action = action
        self.pages = pages
    }
}
