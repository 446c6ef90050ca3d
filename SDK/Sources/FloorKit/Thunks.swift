import CFloorABI

/// The C functions behind every selector this SDK registers. `ctx` is the unmanaged RowKind or FloorKind;
/// `model` the unmanaged AnyFloorBox that decode returned (retained once; destroy releases it).
/// A row index the floor did not list draws nothing and has height 0: the host never crashes a plugin.
enum Thunks {
    static let height: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, Double) -> Double = {
        ctx, model, row, width in
        withRow(ctx, model) { kind, box in
            guard let item = box.item(ofRow: row) else { return 0 }
            return kind.height(box, item, width)
        }
    }

    /// The row kind and the floor's box behind a per-row call's `ctx` and `model`, borrowed for the call: no
    /// retain and release a row (the kind lives as long as the plugin, the box until the host's destroy).
    @inline(__always)
    private static func withRow<R>(
        _ ctx: UnsafeMutableRawPointer?, _ model: UnsafeMutableRawPointer?, _ body: (RowKind, AnyFloorBox) -> R
    ) -> R {
        Unmanaged<RowKind>.fromOpaque(ctx!)._withUnsafeGuaranteedRef { kind in
            Unmanaged<AnyFloorBox>.fromOpaque(model!)._withUnsafeGuaranteedRef { box in body(kind, box) }
        }
    }

    static let cell:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UnsafePointer<floor_canvas_t>?) ->
            Void = {
                ctx, model, row, canvas in
                withRow(ctx, model) { kind, box in
                    guard let item = box.item(ofRow: row), let canvas else { return }
                    kind.cell(box, item, Canvas(raw: canvas))
                }
            }

    static let decode:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UnsafePointer<floor_report_t>?) ->
            UnsafeMutableRawPointer? = {
                ctx, json, length, report in
                let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
                guard let json else { return nil }
                do {
                    return Unmanaged.passRetained(
                        try floor.decode(UnsafeRawBufferPointer(start: json, count: Int(length)))
                    ).toOpaque()
                } catch {
                    let problem =
                        (error as? Refusal).map { DecodingProblem(path: $0.path, message: $0.message) }
                        ?? DecodingProblem(error)
                    if let report {
                        problem.path.withCString { path in
                            problem.message.withCString { report.pointee.error(report, path, $0) }
                        }
                    }
                    return nil
                }
            }

    static let expand:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<floor_row_sink_t>?) -> Void =
            {
                ctx, model, sink in
                // The host lists rows once the page's floors are decoded: no tape memory is kept past that.
                NodeBlocks.shared.letGo()
                let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
                let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
                let unchanged = box.unchangedRows
                box.unchangedRows = nil
                // Right after an extend that updated `rows` itself, list only what follows the rows the host keeps.
                if let unchanged, let sink, let keep = sink.pointee.keep {
                    let kept = min(unchanged, Int(clamping: sink.pointee.reusable), box.rows.count)
                    keep(sink, UInt64(kept))
                    list(box.rows, from: kept, to: sink)
                    return
                }
                box.rows = floor.expand(box)
                guard let sink else { return }
                list(box.rows, from: 0, to: sink)
            }

    /// Hands the host rows `start...` of `rows`, a run at a time: per row, only the sink's call.
    private static func list(_ rows: ListedRows, from start: Int, to sink: UnsafePointer<floor_row_sink_t>) {
        guard let add = sink.pointee.add else { return }
        rows.forEachRun(from: start) { type, flags, count in
            for _ in 0..<count { add(sink, type, flags) }
        }
    }

    static let tappable: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64) -> UInt64 = {
        ctx, model, row in
        withRow(ctx, model) { kind, box in
            guard row < UInt64(box.rows.count) else { return 0 }
            if let every = kind.everyRowTaps { return UInt64(every) }
            guard let taps = kind.taps else { return 0 }
            return UInt64(max(0, taps(box, box.rows[Int(row)].item)))
        }
    }

    static let pages: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64) -> UInt64 = {
        ctx, model, row in
        withRow(ctx, model) { kind, box in
            guard let item = box.item(ofRow: row), let pages = kind.pages else { return 1 }
            return UInt64(max(0, pages(box, item)))
        }
    }

    static let action:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UInt64, UnsafePointer<floor_action_sink_t>?
        ) -> Bool = {
            ctx, model, row, tap, sink in
            let kind = Unmanaged<RowKind>.fromOpaque(ctx!).takeUnretainedValue()
            let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
            guard let item = box.item(ofRow: row), tap < UInt64(Int.max), let sink,
                let action = kind.action?(box, item, Int(tap))
            else { return false }
            // A 1.5 host takes strings with their lengths (docs/ABI-1.5.md, part 5): a url or a parameter
            // holding U+0000 arrives whole instead of cut there.
            if (FloorPlugin.host?.pointee.abi_minor ?? 0) >= 5, let jump = sink.pointee.jump_n,
                let param = sink.pointee.param_n
            {
                withLength(action.url) { url, urlLength in
                    if let event = action.eventId {
                        withLength(event) { jump(sink, url, urlLength, $0, $1) }
                    } else {
                        jump(sink, url, urlLength, nil, 0)
                    }
                }
                for key in action.params.keys.sorted() {
                    withLength(key) { k, kl in withLength(action.params[key]!) { param(sink, k, kl, $0, $1) } }
                }
                return true
            }
            action.url.withCString { url in
                if let event = action.eventId {
                    event.withCString { sink.pointee.jump(sink, url, $0) }
                } else {
                    sink.pointee.jump(sink, url, nil)
                }
            }
            for key in action.params.keys.sorted() {
                key.withCString { k in action.params[key]!.withCString { sink.pointee.param(sink, k, $0) } }
            }
            return true
        }

    static let validate:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<floor_report_t>?) -> Bool = {
            ctx, model, report in
            let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
            let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
            let problems = floor.validate(box)
            // Items left out while decoding are warnings (reported with a true verdict, the floor is kept);
            // reported with the model's own problems, they are part of why the floor is left out.
            if let report { for problem in box.leftOutItems + problems { send(problem, to: report) } }
            return problems.isEmpty
        }

    static let extend:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
            UnsafePointer<floor_report_t>?, UnsafeMutablePointer<floor_extend_result_t>?
        ) -> Void = {
            ctx, model, next, report, result in
            let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
            let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
            guard let extend = floor.extend, let next else { return }
            let nextBox = Unmanaged<AnyFloorBox>.fromOpaque(next).takeUnretainedValue()
            // An ItemsFloor: the appended items' rows go in before the bottom margin; nothing else changes.
            if let appendItems = floor.appendItems {
                let (dropped, added, at) = appendItems(box, nextBox)
                if let report { for problem in dropped { send(problem, to: report) } }
                if let added, at >= 0, at <= box.rows.count {
                    let trailing = box.rows.count - at
                    box.rows.insert(contentsOf: added, at: at)
                    box.unchangedRows = at
                    result?.pointee = floor_extend_result_t(
                        unchanged_leading: UInt64(at), unchanged_trailing: UInt64(trailing))
                    return
                }
                box.unchangedRows = nil
                result?.pointee = difference(box.rows, floor.expand(box))
                return
            }
            let before = box.rows
            let dropped = extend(box, nextBox)
            if let report { for problem in dropped { send(problem, to: report) } }
            result?.pointee = difference(before, floor.expand(box))
        }

    /// How many rows at both ends of a floor's rows an extend left untouched. A row is the same row when
    /// its type and item are. O(rows in the floor): the path for floors that are not ItemsFloors.
    private static func difference(_ before: ListedRows, _ expanded: ListedRows) -> floor_extend_result_t {
        let after = expanded.map { ($0.type, $0.item) }
        let old = before.map { ($0.type, $0.item) }
        let leading = zip(old, after).prefix { $0 == $1 }.count
        let trailing = zip(old.reversed(), after.reversed()).prefix { $0 == $1 }.count
        let limit = min(old.count, after.count) - leading
        return floor_extend_result_t(
            unchanged_leading: UInt64(leading), unchanged_trailing: UInt64(min(trailing, limit)))
    }

    private static func send(_ problem: FloorProblem, to report: UnsafePointer<floor_report_t>) {
        problem.path.withCString { path in problem.reason.withCString { report.pointee.error(report, path, $0) } }
    }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, model in
        guard let model else { return }
        Unmanaged<AnyFloorBox>.fromOpaque(model).release()
    }
}

/// `text`'s UTF-8 bytes and their count, for an ABI call that takes a length (U+0000 included).
func withLength<R>(_ text: String, _ body: (UnsafePointer<CChar>, UInt64) -> R) -> R {
    let bytes = Array(text.utf8) + [0]
    return bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!, UInt64(buffer.count - 1)) }
    }
}
