import CFloorABI
import Foundation

/// The C functions behind every selector this SDK registers. `ctx` is the unmanaged RowKind or FloorKind;
/// `model` the unmanaged AnyFloorBox that decode returned (retained once; destroy releases it).
/// A row index the floor did not list draws nothing and has height 0: the host never crashes a plugin.
enum Thunks {
    static let height: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, Double) -> Double = {
        ctx, model, row, width in
        let kind = Unmanaged<RowKind>.fromOpaque(ctx!).takeUnretainedValue()
        let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
        guard row < UInt64(box.rowItems.count) else { return 0 }
        return kind.height(box, box.rowItems[Int(row)], width)
    }

    static let cell: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UnsafePointer<floor_canvas_t>?) -> Void = {
        ctx, model, row, canvas in
        let kind = Unmanaged<RowKind>.fromOpaque(ctx!).takeUnretainedValue()
        let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
        guard row < UInt64(box.rowItems.count), let canvas else { return }
        kind.cell(box, box.rowItems[Int(row)], Canvas(raw: canvas))
    }

    static let decode: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt64, UnsafePointer<floor_report_t>?) -> UnsafeMutableRawPointer? = {
        ctx, json, length, report in
        let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
        guard let json else { return nil }
        let data = Data(bytesNoCopy: json, count: Int(length), deallocator: .none)
        do {
            return Unmanaged.passRetained(try floor.decode(data)).toOpaque()
        } catch {
            let problem = DecodingProblem(error)
            if let report {
                problem.path.withCString { path in
                    problem.message.withCString { report.pointee.error(report, path, $0) }
                }
            }
            return nil
        }
    }

    static let expand: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafePointer<floor_row_sink_t>?) -> Void = {
        ctx, model, sink in
        let floor = Unmanaged<FloorKind>.fromOpaque(ctx!).takeUnretainedValue()
        let box = Unmanaged<AnyFloorBox>.fromOpaque(model!).takeUnretainedValue()
        let rows = floor.expand(box)
        box.rowItems = rows.map(\.item)
        guard let sink else { return }
        for row in rows { sink.pointee.add(sink, row.kind.id, row.flags) }
    }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, model in
        guard let model else { return }
        Unmanaged<AnyFloorBox>.fromOpaque(model).release()
    }
}
