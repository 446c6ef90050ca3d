import CFloorABI
import FloorCore
import FloorRuntime
import HostContract

/// The generic adapter (one `UITableViewDataSource` for every page, knowing no floor type): expands each floor into rows, dispatches every row by its row model type
/// to the registered height calculator and cell selector, and lays the page out at a width. It knows no
/// floor type. The per-row path is integer-indexed: no string work, no hashing.
///
/// Heights are cached per row and per width and invalidated precisely: a new width measures every row
/// once, going back to a width measured before measures only the rows added or changed since; a next page
/// measures only the rows it adds or changes.
/// Threading: one thread at a time, like every plugin call.
public final class Adapter: @unchecked Sendable {
    package let registry: Registry
    public let dispatch: DispatchMode
    public private(set) var width: Double
    /// The first page and each next page merged in; they own the floor models.
    public private(set) var pages: [Page]
    public var page: Page { pages[0] }
    /// The page's floors in display order, across every merged page.
    public private(set) var sections: [Page.Section] = []
    // The tables the per-row path reads (`drawCell`, `frame(of:)`, `cellWidth(ofRow:)`) are unchecked for
    // exclusivity: the adapter is used from one thread at a time, none of their accesses overlaps another,
    // and a checked access cost each row drawn about as much as the grid drawing a short text.
    /// `sections[s].model`, as plain pointers for the per-row path.
    @exclusivity(unchecked) package private(set) var models: ContiguousArray<UnsafeMutableRawPointer> = []
    /// `sections[s].origin`, for the crash record of the per-row path.
    @exclusivity(unchecked) package private(set) var origins: ContiguousArray<FloorOrigin> = []
    /// The first section showing each floor id: where a next page's floor with that id goes.
    private var sectionOfFloor: [String: Int] = [:]
    /// The first row of each section, plus the row count at the end.
    private var sectionStart: [Int] = [0]
    @exclusivity(unchecked) package private(set) var rows = RowTable()
    /// The floors laid out as a grid or a waterfall (ABI 1.5), by section: their columns' items and where
    /// their placing stopped (PlacedCollection). Empty on a page of lists, which is laid out as before.
    @exclusivity(unchecked) package private(set) var collections: [Int: PlacedCollection] = [:]
    /// Per section, the width its item rows (FLOOR_ROW_ITEM) are measured and drawn at: a collection's
    /// column width, else the page's width.
    @exclusivity(unchecked) package private(set) var itemWidths: ContiguousArray<Double> = []
    /// Heights measured at the widths the page was laid out at before (the row table holds the current
    /// width's), kept in step with every next page's edits (NaN for the rows an edit added): the width
    /// cache that makes a terminal resize and back cost nothing. At most `widthsRemembered` widths.
    private var heightsAtOtherWidths: [Double: [Double]] = [:]
    package static let widthsRemembered = 4
    /// The load-state footer's model while the page shows one (Footer.swift): the last section, after
    /// every floor. Retained here; its section's model pointer is unretained.
    public private(set) var footer: LoadStateFooter?
    /// Problems found while expanding and merging floors.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Row types already reported for a tappable count past FLOOR_TAPPABLE_MAX (Tap.swift): once each.
    package var tappableOverflowReported: Set<Int32> = []
    /// The item frames each row's cell reported when last drawn, by row (ItemFrames.swift); forgotten when
    /// the rows change (a next page, a reload), since rows may have moved.
    package var drawnFrames: [Int: DrawnFrames] = [:]
    /// The horizontal page each paged row shows, by floor id and row of the floor (PagedRows.swift): kept
    /// while next pages and reloads move rows. A row not here shows page 0.
    package var shownPages: [PagedRow: Int] = [:]
    /// Row types already reported for a pages answer past FLOOR_PAGES_MAX (PagedRows.swift): once each.
    package var pagesOverflowReported: Set<Int32> = []
    package func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// How often the adapter called into plugins' hot selectors, so tests can prove what is cached.
    public struct Stats: Sendable, Equatable {
        public var heightCalls = 0
        public var cellCalls = 0
        /// Expand calls, and the rows they listed (ABI 1.2: rows a plugin kept are not listed).
        public var expands = 0
        public var rowsListed = 0
        /// Reloads (PageReload), and the rows whose cached height they kept instead of measuring them again.
        public var reloads = 0
        public var heightsKept = 0
    }
    @exclusivity(unchecked) public package(set) var stats = Stats()

    public convenience init(page: Page, registry: Registry, width: Double, dispatch: DispatchMode = .typed) {
        self.init(page: page, registry: registry, width: width, dispatch: dispatch, measuring: .now)
    }

    /// When the rows of the page an adapter is made with are measured.
    package enum Measuring: Sendable {
        /// Every row, before the initializer returns.
        case now
        /// A few rows at a time, as `measure(throughRow:)` reaches them, so that a front end drawing every
        /// row in order (a whole page's text preview) draws rows as soon as they are measured, while the rows
        /// before them are still being written (ARCHITECTURE.md, "Output contract"). Until every row is
        /// measured, only the rows measured so far are laid out, and `totalHeight` is where they end.
        case asReached
    }

    package init(page: Page, registry: Registry, width: Double, dispatch: DispatchMode, measuring: Measuring) {
        self.registry = registry
        self.width = width
        self.dispatch = dispatch
        pages = [page]
        reserveSections(page.sections.count)
        // Every floor expanded first (its plugin calls in page order, as before), so that the row table is
        // reserved once for all of them: growing it floor by floor left each copy it outgrew behind, touched
        // (on the 8 MB page, 0.8 MB of the process's peak memory; BENCHMARKS.md, issue 23).
        let expanded = page.sections.enumerated().map { expand($1, number: $0).rows }
        rows.reserve(expanded.reduce(0) { $0 + $1.count })
        for (k, section) in page.sections.enumerated() { appendSection(section, reusing: expanded[k]) }
        switch measuring {
        case .now: measureAll()
        case .asReached: unmeasuredRow = rows.count > 0 ? 0 : nil
        }
    }

    /// The first row not measured yet (`Measuring.asReached`); nil once every row is measured.
    private var unmeasuredRow: Int?

    /// Whether every row is measured and laid out (always, but while a `.asReached` adapter is being drawn).
    package var isMeasured: Bool { unmeasuredRow == nil }

    /// Rows a `.asReached` adapter measures at least at a time in a list floor: a few terminal screens' worth,
    /// less than a band of the text preview's lines (TextLineWriter), so its writer always has lines to write
    /// while the next rows are measured.
    static let rowsMeasuredAhead = 64

    /// Measures the rows not measured yet through row `r`, and `rowsMeasuredAhead` more within its floor (a
    /// collection floor whole, so that its items are placed together), then lays them out: rows before them
    /// do not move. Does nothing where they are measured already. O(rows measured).
    package func measure(throughRow r: Int) {
        guard let first = unmeasuredRow, r >= first else { return }
        var end = rows.count
        if r < rows.count {
            let section = Int(rows[r].section)
            end = sectionStart[section + 1]
            if collections[section] == nil { end = min(end, max(r + 1, first + Self.rowsMeasuredAhead)) }
        }
        measure(first..<end)
        rows.layOut(from: first, to: end, sectionStart: sectionStart, collections: &collections)
        unmeasuredRow = end < rows.count ? end : nil
    }

    /// Measures and lays out every row not measured yet (`Measuring.asReached`).
    package func measureRest() {
        measure(throughRow: rows.count)
    }

    /// The rows of `pages` (the first and the next pages merged in), expanded but not measured: what a
    /// reload (PageDiff) compares with the page on screen before anything is measured.
    package init(unmeasured pages: [Page], registry: Registry, width: Double, dispatch: DispatchMode) {
        self.registry = registry
        self.width = width
        self.dispatch = dispatch
        self.pages = [pages[0]]
        measuresAppends = false
        reserveSections(pages[0].sections.count)
        for (k, section) in pages[0].sections.enumerated() { appendSection(section, reusing: pages[0].reusedRows[k]) }
        for next in pages.dropFirst() { append(next) }
    }

    /// False while an unmeasured adapter merges next pages.
    private var measuresAppends = true

    /// Takes over `fresh`'s pages and rows (PageReload): `heights` are the current width's cached heights
    /// for its rows and `otherWidths` those of other widths (NaN where a row must be measured). Measures
    /// exactly the NaN rows at the current width and lays the page out. The pages on screen until now
    /// are released (their models destroyed).
    package func adopt(_ fresh: Adapter, heights: [Double], otherWidths: [Double: [Double]]) {
        pages = fresh.pages
        sections = fresh.sections
        models = fresh.models
        origins = fresh.origins
        collections = fresh.collections
        itemWidths = fresh.itemWidths
        sectionOfFloor = fresh.sectionOfFloor
        sectionStart = fresh.sectionStart
        rows = fresh.rows
        rows.restore(heights: heights)
        heightsAtOtherWidths = otherWidths
        diagnostics = fresh.diagnostics
        tappableOverflowReported = fresh.tappableOverflowReported
        drawnFrames = [:]
        stats.expands += fresh.stats.expands
        stats.rowsListed += fresh.stats.rowsListed
        measure(0..<rows.count, onlyUnmeasured: true)
        relayout()
    }

    /// Cached heights at widths other than the current one, by row (see `heightsAtOtherWidths`).
    package var heightsByOtherWidth: [Double: [Double]] { heightsAtOtherWidths }

    /// The sections and rows as they are now (a copy that shares storage until either side changes).
    package var laidOut: LaidOutPage { LaidOutPage(sections: sections, sectionStart: sectionStart, rows: rows) }

    /// Room for `needed` sections with headroom (half again, at least 64) in every per-section collection,
    /// so that the floors a next page adds do not regrow (copy or rehash) them: like RowTable's rows.
    private func reserveSections(_ needed: Int) {
        guard needed > sections.capacity else { return }
        let capacity = needed + max(needed / 2, 64)
        sections.reserveCapacity(capacity)
        models.reserveCapacity(capacity)
        origins.reserveCapacity(capacity)
        itemWidths.reserveCapacity(capacity)
        sectionStart.reserveCapacity(capacity + 1)
        sectionOfFloor.reserveCapacity(capacity)
    }

    public var rowCount: Int { rows.count }

    /// Row `r` of the table, read in place: from another module, `adapter.rows[r]` copies the table (a retain and
    /// a release of each of its arrays) to call its subscript; the text preview reads two rows a card this way.
    package func row(_ r: Int) -> RowTable.Row { rows[r] }
    public var totalHeight: Double { rows.totalHeight }

    /// The row at `offset` points from the top of the page.
    public func row(at offset: Double) -> Int? { rows.row(at: offset) }

    public func describe(row r: Int) -> RowInfo {
        let row = rows[r]
        let frame = frame(of: r)
        return RowInfo(
            section: Int(row.section), row: Int(row.index), floor: sections[Int(row.section)].floorID,
            type: registry.rowTypes[Int(row.type)].name, plugin: registry.sharedRowTypePlugin(row.type),
            placeholder: unusableHeightReason(row: row), y: row.top, height: row.height,
            isHeader: row.flags & FLOOR_ROW_HEADER != 0, isSticky: row.flags & FLOOR_ROW_STICKY != 0,
            x: frame.x, width: frame.width, column: column(of: r))
    }

    /// The global row index of row `row` of section `section`, if there is one.
    public func rowIndex(section: Int, row: Int) -> Int? {
        guard section >= 0, section < sections.count, row >= 0 else { return nil }
        let r = sectionStart[section] + row
        return r < sectionStart[section + 1] ? r : nil
    }

    package func rows(ofSection section: Int) -> Range<Int> { sectionStart[section]..<sectionStart[section + 1] }

    /// Lays the page out at a new width. Rows measured at that width before, and not changed since, are
    /// not measured again (the cache is per width); every other row is.
    public func setWidth(_ newWidth: Double) {
        guard newWidth != width else { return }
        measureRest()
        let cached = heightsAtOtherWidths.removeValue(forKey: newWidth)
        if heightsAtOtherWidths.count >= Self.widthsRemembered, let any = heightsAtOtherWidths.keys.first {
            heightsAtOtherWidths[any] = nil
        }
        heightsAtOtherWidths[width] = rows.heights
        width = newWidth
        for s in sections.indices { itemWidths[s] = sections[s].collection?.columnWidth(in: width) ?? width }
        guard let cached else { return measureAll() }
        rows.restore(heights: cached)
        measure(0..<rows.count, onlyUnmeasured: true)
        relayout()
    }

    /// Lays the page out again from the height cache: every row's offset is recomputed and no plugin is
    /// called. O(rows). (A new width, or a next page's rows, are measured by `setWidth` and `append`.)
    public func relayout() {
        measureRest()
        layOut(from: 0)
    }

    /// Lays the rows out from row `first` on (RowTable.layOut: lists as prefix sums, collections' items
    /// into their columns). Rows before `first` do not move.
    private func layOut(from first: Int) {
        rows.layOut(from: first, sectionStart: sectionStart, collections: &collections)
    }

    // MARK: Dispatch

    /// Calls the row's cell selector with a canvas of the row's size.
    package func drawCell(row r: Int, into canvas: UnsafePointer<floor_canvas_t>) {
        let row = rows[r]
        if let reason = unusableHeightReason(row: row) {
            // Its height calculator gave no height: the host draws the row, as a placeholder with the reason.
            return BuiltinRows.drawPlaceholder(reason, into: canvas)
        }
        stats.cellCalls += 1
        let model = models[Int(row.section)]
        let record = registry.crashRecord
        record.withPluginCall(.cell, on: origins[Int(row.section)]) {
            switch dispatch {
            case .typed:
                let entry = registry.dispatch[Int(row.type)]
                entry.cell(entry.context, model, UInt64(row.index), canvas)
            case .ffi:
                // Field by field: a copy of the whole entry would retain each of its invokers for the call.
                let type = Int(row.type)
                let context = registry.invokers[type].context
                _ = try? registry.invokers[type].cell.perform(
                    .pointer(context), .pointer(model), .uint(UInt64(row.index)),
                    .pointer(UnsafeMutableRawPointer(mutating: canvas)))
            }
        }
    }

    /// Measures the rows in `range` (only those still NaN when `onlyUnmeasured`). Both loops read their table
    /// (the registry's dispatch table or its invokers) and the models through locals and the rows through a
    /// buffer: no retain, release or exclusivity check per row.
    private func measure(_ range: Range<Int>, onlyUnmeasured: Bool = false) {
        let models = self.models
        let origins = self.origins
        let width = self.width
        let itemWidths = self.itemWidths
        let dispatch = self.dispatch
        let registry = self.registry
        let record = registry.crashRecord
        guard !range.isEmpty else { return }
        var outOfBounds: [OutOfBoundsHeight] = []
        let calls = record.withPluginCall(.height, on: origins[Int(rows[range.lowerBound].section)]) {
            rows.withRows { rows in
                var calls = 0
                var section = rows[range.lowerBound].section
                /// The loop both dispatch modes share; `height` calls the row's height calculator. A height out of
                /// bounds is the rare branch, noted once per run of rows of one floor and row type: above the
                /// maximum it is clamped; no height at all (UnusableHeight) makes the row a placeholder, which
                /// is not asked again.
                func measureRows(_ height: (RowTable.Row) -> Double) {
                    for r in range where !onlyUnmeasured || rows[r].height.isNaN {
                        let row = rows[r]
                        if row.section != section {
                            section = row.section
                            record.on(origins[Int(section)])
                        }
                        guard row.unusableHeight == nil else {
                            rows[r].height = BuiltinRows.placeholderHeight
                            continue
                        }
                        record.step(r)
                        let measured = height(row)
                        if measured >= 0 && measured <= Self.maxRowHeight {
                            rows[r].height = measured
                        } else if let unusable = UnusableHeight(measured) {
                            rows[r].unusableHeight = unusable
                            rows[r].height = BuiltinRows.placeholderHeight
                            OutOfBoundsHeight.note(row, measured, in: &outOfBounds)
                        } else {
                            rows[r].height = Self.maxRowHeight
                            OutOfBoundsHeight.note(row, measured, in: &outOfBounds)
                        }
                        calls += 1
                    }
                }
                switch dispatch {
                case .typed:
                    let table = registry.dispatch
                    measureRows { row in
                        let entry = table[Int(row.type)]
                        let width = row.flags & FLOOR_ROW_ITEM != 0 ? itemWidths[Int(row.section)] : width
                        return entry.height(entry.context, models[Int(row.section)], UInt64(row.index), width)
                    }
                case .ffi:
                    let table = registry.invokers
                    measureRows { row in
                        let entry = table[Int(row.type)]
                        let result = try? entry.height.perform(
                            .pointer(entry.context), .pointer(models[Int(row.section)]),
                            .uint(UInt64(row.index)),
                            .double(row.flags & FLOOR_ROW_ITEM != 0 ? itemWidths[Int(row.section)] : width))
                        if case .double(let height)? = result { return height }
                        return 0
                    }
                }
                return calls
            }
        }
        stats.heightCalls += calls
        if !outOfBounds.isEmpty { report(outOfBounds) }
    }

    /// The ABI's bound on a row's height (FLOOR_MAX_ROW_HEIGHT): it keeps the page's height, and every
    /// cost that follows it (text lines, scrolling), proportional to the rows.
    public static let maxRowHeight = FLOOR_MAX_ROW_HEIGHT

    /// One diagnostic per floor, row type and kind of answer whose height calculator answered out of bounds,
    /// naming the plugin, the floor and the first value: an error either way (the screen differs from the
    /// page), a placeholder for no height at all, clamped above the maximum.
    private func report(_ found: [OutOfBoundsHeight]) {
        var merged: [OutOfBoundsHeight] = []
        var at: [OutOfBoundsHeight.Key: Int] = [:]
        for entry in found {
            if let i = at[entry.key] {
                merged[i].count += entry.count
            } else {
                at[entry.key] = merged.count
                merged.append(entry)
            }
        }
        for entry in merged {
            let section = sections[Int(entry.key.section)]
            let type = registry.rowTypes[Int(entry.key.type)]
            let plugin = registry.plugins[type.plugin].id
            let more = entry.count > 1 ? " and \(entry.count - 1) more of its rows" : ""
            let limit = Self.maxRowHeight.pointsText
            let place = "\(section.file): \(section.path) (floor '\(section.floorID)')"
            if entry.key.unusable {
                let answer = entry.value.isNaN ? "NaN" : entry.value.pointsText
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "\(place): \(UnusableHeight.reason(plugin: plugin, rowType: type.name, answer: answer)) (row \(entry.row) of the floor\(more)); a height is a finite number of points, 0 or more",
                        file: section.file, plugin: plugin, path: section.path, consequence: .placeholder))
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "\(place): plugin \(plugin) returned a height of \(entry.value) points for row type '\(type.name)' (row \(entry.row) of the floor\(more)); a row is 0 to \(limit) points high (FLOOR_MAX_ROW_HEIGHT), so \(limit) is used (clamped)",
                        file: section.file, plugin: plugin, path: section.path, consequence: .clamped))
            }
        }
    }

    /// What a row shown as a placeholder for an unusable height says (UnusableHeight.reason).
    package func unusableHeightReason(row: RowTable.Row) -> String? {
        guard let unusable = row.unusableHeight else { return nil }
        let type = registry.rowTypes[Int(row.type)]
        return UnusableHeight.reason(
            plugin: registry.plugins[type.plugin].id, rowType: type.name, answer: unusable.answer)
    }

    // MARK: Expanding floors

    /// `reusing`: the rows the section's model was expanded into before (a reload kept the model,
    /// ReusableFloors); expand is not called again.
    private func appendSection(_ section: Page.Section, reusing: [ExpandedRow]? = nil) {
        reserveSections(sections.count + 1)
        let number = sections.count
        sections.append(section)
        models.append(section.model)
        origins.append(section.origin)
        itemWidths.append(section.collection?.columnWidth(in: width) ?? width)
        if let layout = section.collection { collections[number] = PlacedCollection(layout) }
        if sectionOfFloor[section.floorID] == nil { sectionOfFloor[section.floorID] = number }
        let expanded = reusing ?? expand(section, number: number).rows
        rows.replace(rows.count..<rows.count, with: expanded, section: number)
        sectionStart.append(rows.count)
    }

    /// Measures every row at the current width and lays the page out.
    private func measureAll() {
        measure(0..<rows.count)
        relayout()
    }

    /// The rows a section's floor lists now; a placeholder section has one host-drawn row.
    /// `kept` is how many leading rows the plugin said are the ones it listed before (at most `reusable`,
    /// ABI 1.2's floor_row_sink_t.keep); `rows` are the rows listed after them, numbered from `kept`.
    private func expand(_ section: Page.Section, number: Int, reusable: Int = 0) -> (kept: Int, rows: [ExpandedRow]) {
        guard let typeID = section.typeID else {
            return (0, [.init(index: 0, type: registry.builtinRowType(BuiltinRows.placeholder), flags: 0)])
        }
        let floorType = registry.floorTypes[Int(typeID)]
        let sink = RowSink(types: registry.rowTypes, plugin: floorType.plugin, reusable: reusable)
        stats.expands += 1
        registry.crashRecord.withPluginCall(.expand, on: section.origin) {
            sink.withSink { sink in
                _ = try? floorType.expand.invoker.perform(
                    .pointer(floorType.context), .pointer(section.model), .pointer(sink))
            }
        }
        if let foreign = sink.foreignType {
            let plugin = registry.plugins[floorType.plugin].id
            diagnostics.append(
                Diagnostic(
                    .error,
                    "\(section.file): \(section.path) (floor '\(section.floorID)'): plugin \(plugin) listed a row with \(foreign) (left out)",
                    file: section.file, plugin: plugin, path: section.path, consequence: .leftOut))
        }
        if let misuse = sink.refusedKeep {
            let plugin = registry.plugins[floorType.plugin].id
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "\(section.file): \(section.path) (floor '\(section.floorID)'): plugin \(plugin) called keep(\(misuse.count)) on the row sink \(misuse.why); the call is ignored",
                    file: section.file, plugin: plugin, path: section.path, consequence: .ignored))
        }
        stats.rowsListed += sink.rowsListed
        return (sink.kept, sink.rows)
    }

    // MARK: The load-state footer

    /// Lays `footer` out as the last section (once; a second call does nothing). O(1).
    package func installFooter(_ footer: LoadStateFooter) {
        guard self.footer == nil else { return }
        measureRest()
        self.footer = footer
        let at = rows.count
        appendFooterSection()
        for width in heightsAtOtherWidths.keys { heightsAtOtherWidths[width]!.append(.nan) }
        measure(at..<rows.count)
        layOut(from: at)
    }

    /// Appends the footer's section and its one row, unmeasured.
    private func appendFooterSection() {
        guard let footer else { return }
        reserveSections(sections.count + 1)
        let number = sections.count
        let model = Unmanaged.passUnretained(footer).toOpaque()
        let section = Page.Section(
            floorID: LoadStateFooter.floorID, floorType: BuiltinRows.footer, path: "footer",
            file: page.file, origin: FloorOrigin(page: -1, floor: -1), typeID: nil, model: model,
            hasID: true, signature: FloorSignature())
        sections.append(section)
        models.append(model)
        origins.append(section.origin)
        itemWidths.append(width)
        rows.replace(
            rows.count..<rows.count,
            with: [.init(index: 0, type: registry.builtinRowType(BuiltinRows.footer), flags: 0)],
            section: number)
        sectionStart.append(rows.count)
    }

    /// Takes the footer's section off the end; returns the row it had, nil when there is no footer.
    private func removeFooterSection() -> Int? {
        guard footer != nil else { return nil }
        let at = rows.count - 1
        rows.replace(at..<rows.count, with: [ExpandedRow](), section: 0)
        sections.removeLast()
        models.removeLast()
        origins.removeLast()
        itemWidths.removeLast()
        sectionStart.removeLast()
        return at
    }

    /// For a reload: takes the footer's section off (heights at other widths too). True when there was one.
    package func removeFooter() -> Bool {
        guard removeFooterSection() != nil else { return false }
        for width in heightsAtOtherWidths.keys { heightsAtOtherWidths[width]!.removeLast() }
        return true
    }

    /// For a reload: puts the footer back as the last section, at its constant height (not measured).
    package func restoreFooter() {
        let at = rows.count
        appendFooterSection()
        guard rows.count > at else { return }
        rows[at].height = LoadStateFooter.height
        for width in heightsAtOtherWidths.keys { heightsAtOtherWidths[width]!.append(LoadStateFooter.height) }
        layOut(from: at)
    }

    // MARK: Next pages

    /// What merging a next page changed: rows `at ..< at + removed` became `at ..< at + added`. Edits are
    /// listed in the order they happened, each relative to the rows as they were just before it.
    public struct Edit: Sendable, Equatable {
        public let at: Int
        public let removed: Int
        public let added: Int

        package init(at: Int, removed: Int, added: Int) {
            self.at = at
            self.removed = removed
            self.added = added
        }
    }

    /// Merges a next page: a floor whose `id` is already on the page extends that floor (its plugin's
    /// extend selector appends the items and reports dropped duplicates); every other floor is appended
    /// as a new section. Only added or changed rows are measured (cost O(rows added + rows after the first
    /// change), not O(page)). Returns the edits in the order they happened.
    /// The footer, when there is one, leaves first and comes back last (two edits), so that a next page's
    /// new floors land before it.
    @discardableResult
    public func append(_ next: Page) -> [Edit] {
        measureRest()
        pages.append(next)
        drawnFrames = [:]
        diagnostics += next.diagnostics
        var edits: [Edit] = []
        if let at = removeFooterSection() { edits.append(Edit(at: at, removed: 1, added: 0)) }
        for (index, section) in next.sections.enumerated() {
            if let existing = sectionOfFloor[section.floorID],
                let edit = extend(existing, with: section, index: index, of: next)
            {
                edits.append(edit)
            } else {
                let at = rows.count
                appendSection(section)
                edits.append(Edit(at: at, removed: 0, added: rows.count - at))
            }
        }
        if footer != nil {
            let at = rows.count
            appendFooterSection()
            // The footer's height is the host's constant at any width: it is not measured again.
            rows[at].height = LoadStateFooter.height
            edits.append(Edit(at: at, removed: 0, added: 1))
        }
        // Every edit left its rows unmeasured (NaN); nothing before the first edit moved.
        guard measuresAppends, let first = edits.map(\.at).min() else { return edits }
        for width in heightsAtOtherWidths.keys {
            for edit in edits {
                heightsAtOtherWidths[width]!.replaceSubrange(
                    edit.at..<(edit.at + edit.removed), with: repeatElement(.nan, count: edit.added))
            }
        }
        measure(first..<rows.count, onlyUnmeasured: true)
        layOut(from: first)
        return edits
    }

    /// Extends section `existing` with a next page's floor of the same id, or returns nil (and says why)
    /// when that floor cannot extend it, in which case the caller appends it as a new section.
    private func extend(_ existing: Int, with section: Page.Section, index: Int, of next: Page) -> Edit? {
        let target = sections[existing]
        func refuse(_ reason: String) -> Edit? {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "\(next.file): \(section.path) (floor '\(section.floorID)'): \(reason); it is shown as a new floor",
                    file: next.file, path: section.path))
            return nil
        }
        guard let typeID = target.typeID else {
            return refuse(
                "it continues floor '\(section.floorID)', which is not shown (a placeholder), so it cannot be continued"
            )
        }
        guard section.typeID == typeID else {
            if section.typeID == nil && section.floorType == target.floorType {
                // Its decoder refused it: a continuation is decoded as a whole floor before it extends.
                let why = Unmanaged<BuiltinRows.Placeholder>.fromOpaque(section.model).takeUnretainedValue().text
                let prefix = "\(section.floorType) '\(section.floorID)' not shown: "
                let reason = why.hasPrefix(prefix) ? String(why.dropFirst(prefix.count)) : why
                if reason.hasPrefix("its plugin ") {
                    return refuse(
                        "it continues floor '\(section.floorID)' ('\(section.floorType)') but is not shown itself (\(reason))"
                    )
                }
                return refuse(
                    "it continues floor '\(section.floorID)' ('\(section.floorType)') but did not decode on its own (\(reason)); a next page's floor is decoded as a whole floor before it extends the first, so every field its decoder requires must be on the next page too (a field only the first page carries must be optional)"
                )
            }
            return refuse(
                "a floor with this id is already on the page with type '\(target.floorType)', not '\(section.floorType)'"
            )
        }
        let floorType = registry.floorTypes[Int(typeID)]
        guard let extend = floorType.extend else {
            return refuse("floor type '\(floorType.name)' cannot be continued by a next page")
        }
        let dropped = DecodeReport()
        var result = floor_extend_result_t(unchanged_leading: 0, unchanged_trailing: 0)
        let record = registry.crashRecord
        record.withPluginCall(.extend, on: section.origin) {
            dropped.withReport { report in
                withUnsafeMutablePointer(to: &result) { result in
                    _ = try? extend.invoker.perform(
                        .pointer(floorType.context), .pointer(target.model), .pointer(section.model),
                        .pointer(report), .pointer(UnsafeMutableRawPointer(result)))
                }
            }
        }
        for (path, message) in dropped.errors {
            let jsonPath = DecodeReport.path(path, in: section.path)
            diagnostics.append(
                Diagnostic(
                    .error, "\(next.file): \(jsonPath) (floor '\(section.floorID)'): \(message) (left out)",
                    file: next.file, path: jsonPath, consequence: .leftOut))
        }
        record.withPluginCall(.destroy, on: section.origin) {
            _ = try? floorType.destroy.invoker.perform(.pointer(floorType.context), .pointer(section.model))
        }
        next.consume(section: index)
        sections[existing].signature = target.signature.extended(by: section.signature)

        // Keep the rows the plugin says are unchanged at both ends; everything between is new or changed.
        // The plugin may list only the rows after those it keeps (ABI 1.2), so that this costs O(rows
        // added), not O(rows in the floor): the expanded floor is `kept` old rows, then `listed`.
        let old = rows(ofSection: existing)
        let claimed = (
            leading: Int(clamping: result.unchanged_leading), trailing: Int(clamping: result.unchanged_trailing)
        )
        let (kept, listed) = expand(target, number: existing, reusable: min(claimed.leading, old.count))
        let count = kept + listed.count
        var (leading, trailing) = claimed
        if leading > min(old.count, count) || trailing > min(old.count, count) - leading {
            // A claim past the rows that exist cannot be trusted for any row: measure again every row the
            // plugin did not explicitly keep through the row sink (all of them, for a 1.1 plugin).
            let plugin = registry.plugins[floorType.plugin].id
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "\(next.file): \(section.path) (floor '\(section.floorID)'): plugin \(plugin)'s extender \(extend.name) claimed \(result.unchanged_leading) leading and \(result.unchanged_trailing) trailing unchanged rows, but the floor had \(old.count) rows and now has \(count); every row of the floor is measured again",
                    file: next.file, plugin: plugin, path: section.path))
            (leading, trailing) = (kept, 0)
        }
        let replaced = (old.lowerBound + leading)..<(old.upperBound - trailing)
        let fresh = listed[(leading - kept)..<(listed.count - trailing)]
        rows.replace(replaced, with: fresh, section: existing)
        let delta = fresh.count - replaced.count
        // The trailing rows moved: keep their heights, renumber them within the floor.
        let movedStart = replaced.lowerBound + fresh.count
        for (offset, row) in listed.suffix(trailing).enumerated() { rows[movedStart + offset].index = row.index }
        for s in (existing + 1)..<sectionStart.count { sectionStart[s] += delta }
        return Edit(at: replaced.lowerBound, removed: replaced.count, added: fresh.count)
    }

    /// The floor_row_sink_t expand writes into. Valid only inside `withSink`.
    private final class RowSink {
        // Unchecked for exclusivity: a sink is filled by one expand call, on its thread, and read after it
        // returns (docs/ABI.md, "Threading"); checked, its three counters cost more than the row they list.
        let types: [Registry.RowType]
        /// Each row type's plugin, by row type id (the one field `add` reads, without copying a RowType).
        let pluginOfType: [Int]
        let plugin: Int
        /// Leading rows the plugin may keep instead of listing them again (floor_row_sink_t.reusable).
        let reusable: Int
        @exclusivity(unchecked) var rows: [ExpandedRow] = []
        @exclusivity(unchecked) var next: UInt32 = 0
        var foreignType: String?
        /// Rows the plugin kept (keep) and rows it listed (add), for stats.
        var kept = 0
        @exclusivity(unchecked) var rowsListed = 0
        /// The first keep call that broke the rules, and which rule.
        var refusedKeep: (count: UInt64, why: String)?

        init(types: [Registry.RowType], plugin: Int, reusable: Int) {
            self.types = types
            pluginOfType = types.map(\.plugin)
            self.plugin = plugin
            self.reusable = reusable
        }

        func withSink(_ body: (UnsafeMutableRawPointer) -> Void) {
            var sink = floor_row_sink_t(
                host_data: Unmanaged.passUnretained(self).toOpaque(),
                add: { sink, type, flags in
                    guard let data = sink?.pointee.host_data else { return }
                    Unmanaged<RowSink>.fromOpaque(data).takeUnretainedValue().add(type: type, flags: flags)
                }, reusable: UInt64(reusable),
                keep: { sink, count in
                    guard let data = sink?.pointee.host_data else { return }
                    Unmanaged<RowSink>.fromOpaque(data).takeUnretainedValue().keep(count)
                })
            withUnsafeMutablePointer(to: &sink) { body(UnsafeMutableRawPointer($0)) }
        }

        private func keep(_ count: UInt64) {
            guard next == 0, count <= UInt64(reusable) else {
                let why =
                    kept > 0
                    ? "a second time"
                    : next > 0
                        ? "after adding rows"
                        : "but the host holds \(reusable) rows it could keep"
                if refusedKeep == nil { refusedKeep = (count, why) }
                return
            }
            kept = Int(count)
            next = UInt32(count)
        }

        private func add(type: Int32, flags: UInt32) {
            rowsListed += 1
            let row = next
            next += 1
            // Row types resolve within the plugin that expanded the floor (ABI 1.5): another plugin's would
            // receive a model it cannot read, whatever its name; refuse it here.
            guard type >= 0, Int(type) < pluginOfType.count, pluginOfType[Int(type)] == plugin else {
                if foreignType == nil {
                    let known = type >= 0 && Int(type) < types.count
                    foreignType =
                        known
                        ? "row type id \(type) ('\(types[Int(type)].name)' of another plugin), which it did not register"
                        : "row type id \(type), which it did not register"
                }
                return
            }
            rows.append(.init(index: row, type: type, flags: flags))
        }
    }
}

/// Rows whose height calculator answered out of bounds: the first such row of a run of rows of one floor
/// and row type, its value, and how many rows the run holds.
package struct OutOfBoundsHeight {
    package struct Key: Hashable {
        package let section: UInt32
        package let type: Int32
        /// No height at all (UnusableHeight), rather than one above the maximum.
        package let unusable: Bool
    }
    package let key: Key
    package let row: UInt32
    package let value: Double
    package var count = 1

    package static func note(_ row: RowTable.Row, _ value: Double, in found: inout [OutOfBoundsHeight]) {
        let key = Key(section: row.section, type: row.type, unusable: UnusableHeight(value) != nil)
        if found.last?.key == key {
            found[found.count - 1].count += 1
        } else {
            found.append(.init(key: key, row: row.index, value: value))
        }
    }
}

extension Double {
    /// 10000 rather than 10000.0 when whole: heights in messages read like the page's own numbers.
    fileprivate var pointsText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// One laid-out row, for renderers and tests.
public struct RowInfo: Sendable, Equatable {
    public let section: Int
    public let row: Int
    public let floor: String
    public let type: String
    /// The id of the plugin whose row type this is, when another loaded plugin has a row type of the same
    /// name (ABI 1.5: row types are each plugin's own); nil when the name alone says which.
    public let plugin: String?
    /// Why the row is shown as a placeholder although its floor was drawn (its height calculator gave no
    /// height: UnusableHeight); nil for every other row.
    public let placeholder: String?
    public let y: Double
    public let height: Double
    public let isHeader: Bool
    public let isSticky: Bool
    /// The row's frame across the page (RowFrame): 0 and the page's width for a full-width row.
    public let x: Double
    public let width: Double
    /// The column of an item placed into a grid or a waterfall (ABI 1.5); nil for a full-width row.
    public let column: Int?
}
