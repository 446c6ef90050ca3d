import CFloorABI

/// The seed's generic adapter: expands each floor into rows, dispatches every row by its row model type
/// to the registered height calculator, and lays the page out at a width. It knows no floor type.
/// The per-row path is integer-indexed: no string work, no hashing.
public final class Adapter: @unchecked Sendable {
    public let page: Page
    let registry: Registry
    public let width: Double
    public let dispatch: DispatchMode
    private(set) var rows = RowTable()
    /// Problems found while expanding floors (a row type from another plugin, say).
    public private(set) var diagnostics: [Diagnostic] = []

    public init(page: Page, registry: Registry, width: Double, dispatch: DispatchMode = .typed) {
        self.page = page
        self.registry = registry
        self.width = width
        self.dispatch = dispatch
        for (number, section) in page.sections.enumerated() { expand(section, number: number) }
        layOut()
    }

    public var rowCount: Int { rows.count }
    public var totalHeight: Double { rows.totalHeight }

    /// The row at `offset` points from the top of the page.
    public func row(at offset: Double) -> Int? { rows.row(at: offset) }

    public func describe(row r: Int) -> RowInfo {
        let section = page.sections[Int(rows.section[r])]
        return RowInfo(section: Int(rows.section[r]), row: Int(rows.index[r]), floor: section.floorID,
                       type: registry.rowTypes[Int(rows.type[r])].name, y: rows.top[r], height: rows.height[r],
                       isHeader: rows.flags[r] & FLOOR_ROW_HEADER != 0, isSticky: rows.flags[r] & FLOOR_ROW_STICKY != 0)
    }

    /// Calls the row's cell selector with a canvas of the row's size.
    func drawCell(row r: Int, into canvas: UnsafePointer<floor_canvas_t>) {
        let type = registry.rowTypes[Int(rows.type[r])]
        let model = page.sections[Int(rows.section[r])].model
        switch dispatch {
        case .typed:
            type.cellFunction(type.context, model, UInt64(rows.index[r]), canvas)
        case .ffi:
            _ = try? type.cell.invoker.perform([.pointer(type.context), .pointer(model), .uint(UInt64(rows.index[r])),
                                                .pointer(UnsafeMutableRawPointer(mutating: canvas))])
        }
    }

    private func height(row r: Int) -> Double {
        let type = registry.rowTypes[Int(rows.type[r])]
        let model = page.sections[Int(rows.section[r])].model
        let value: Double
        switch dispatch {
        case .typed:
            value = type.heightFunction(type.context, model, UInt64(rows.index[r]), width)
        case .ffi:
            let result = try? type.height.invoker.perform([.pointer(type.context), .pointer(model),
                                                           .uint(UInt64(rows.index[r])), .double(width)])
            if case .double(let h)? = result { value = h } else { value = 0 }
        }
        // A height that is not a finite, non-negative number would corrupt every offset after it.
        return value.isFinite && value >= 0 ? value : 0
    }

    private func layOut() {
        rows.height = (0..<rows.count).map(height(row:))
        rows.top = [0]
        rows.top.reserveCapacity(rows.count + 1)
        var y = 0.0
        for h in rows.height {
            y += h
            rows.top.append(y)
        }
    }

    private func expand(_ section: Page.Section, number: Int) {
        guard let typeID = section.typeID else {
            rows.append(section: number, index: 0, type: registry.rowTypeID(named: BuiltinRows.placeholder)!, flags: 0)
            return
        }
        let floorType = registry.floorTypes[Int(typeID)]
        let sink = RowSink(adapter: self, section: number, plugin: floorType.plugin)
        sink.withSink { sink in
            _ = try? floorType.expand.invoker.perform([.pointer(floorType.context), .pointer(section.model), .pointer(sink)])
        }
        if let foreign = sink.foreignType {
            let plugin = registry.plugins[floorType.plugin].id
            diagnostics.append(Diagnostic(.error, "\(page.file): \(section.path) (floor '\(section.floorID)'): plugin \(plugin) listed a row with \(foreign), which it did not register; the row is left out",
                                          file: page.file, plugin: plugin, path: section.path))
        }
    }

    /// The floor_row_sink_t expand writes into. Valid only inside `withSink`.
    private final class RowSink {
        unowned let adapter: Adapter
        let section: Int
        let plugin: Int
        var next = 0
        var foreignType: String?

        init(adapter: Adapter, section: Int, plugin: Int) {
            self.adapter = adapter
            self.section = section
            self.plugin = plugin
        }

        func withSink(_ body: (UnsafeMutableRawPointer) -> Void) {
            var sink = floor_row_sink_t(host_data: Unmanaged.passUnretained(self).toOpaque()) { sink, type, flags in
                guard let data = sink?.pointee.host_data else { return }
                Unmanaged<RowSink>.fromOpaque(data).takeUnretainedValue().add(type: type, flags: flags)
            }
            withUnsafeMutablePointer(to: &sink) { body(UnsafeMutableRawPointer($0)) }
        }

        private func add(type: Int32, flags: UInt32) {
            let types = adapter.registry.rowTypes
            let row = next
            next += 1
            // A row type from another plugin would receive a model it cannot read; refuse it here.
            guard type >= 0, Int(type) < types.count, types[Int(type)].plugin == plugin else {
                if foreignType == nil {
                    foreignType = type >= 0 && Int(type) < types.count ? "row type '\(types[Int(type)].name)'" : "row type id \(type)"
                }
                return
            }
            adapter.rows.append(section: section, index: row, type: type, flags: flags)
        }
    }
}

/// One laid-out row, for renderers and tests.
public struct RowInfo: Sendable, Equatable {
    public let section: Int
    public let row: Int
    public let floor: String
    public let type: String
    public let y: Double
    public let height: Double
    public let isHeader: Bool
    public let isSticky: Bool
}
