import FloorCore
import FloorSession
import Foundation

/// The worker's side of WorkerWire: serves one Preview (plugins and sessions, all in this process) to
/// the server on stdin/stdout until stdin closes. Pushes (from loads delivered on tasks, and from the
/// page watcher) and page numbers (from decoding) are written between answers; one lock keeps frames
/// whole.
public final class PreviewWorker: @unchecked Sendable {
    private let preview: Preview
    private let output: FileHandle
    private let lock = NSLock()

    public init(_ preview: Preview, output: FileHandle = .standardOutput) {
        self.preview = preview
        self.output = output
    }

    /// Writes an ordinal frame (FloorHost.numberPages's hook calls this before the page is decoded).
    public func announce(ordinal: Int32, file: String) {
        frame("O \(ordinal) \(file.utf8.count)\n", Array(file.utf8))
    }

    /// Answers requests read from `input` until it closes.
    public func run(input: FileHandle = .standardInput) {
        preview.onPush = { [weak self] session, message in
            let payload = Array("\(session) \(message)".utf8)
            self?.frame("P \(payload.count)\n", payload)
        }
        preview.onLog = { [weak self] line in
            let payload = Array(line.utf8)
            self?.frame("L \(payload.count)\n", payload)
        }
        var pending = [UInt8]()
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { return }
            pending += chunk
            while let newline = pending.firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(line)) else { continue }
                let (kind, payload) = answer(request)
                frame("R \(request.request) \(kind.rawValue) \(payload.count)\n", payload)
            }
        }
    }

    private func answer(_ r: WorkerRequest) -> (WorkerFrame.Kind, [UInt8]) {
        func fail(_ message: String) -> (WorkerFrame.Kind, [UInt8]) { (.fail, Array(message.utf8)) }
        switch r.op {
        case .open:
            guard let file = r.file, let session = r.session else { return fail("open needs file and session") }
            let phone = PhoneSize(
                width: r.width ?? PhoneSize.standard.width, height: r.height ?? PhoneSize.standard.height)
            let id = preview.open(
                file, phone: phone, id: session, offset: r.offset ?? 0, firstVersion: r.version ?? 0,
                eventsSeen: r.replay == true)
            return (.ok, Array(id.utf8))
        case .close:
            preview.close(r.session ?? "")
            return (.ok, [])
        case .first:
            guard let screen = preview.firstScreen(r.session ?? "") else { return (.none, []) }
            return (.ok, Array((try? JSONEncoder().encode(screen)) ?? Data()))
        case .view:
            guard
                let bytes = preview.view(
                    r.session ?? "", offset: r.offset ?? 0, knownVersion: r.version ?? -1, held: r.held ?? HeldRows())
            else {
                return (.none, [])
            }
            return (.ok, bytes)
        case .tap:
            switch preview.tap(r.session ?? "", row: r.row ?? -1, x: r.x ?? 0, y: r.y ?? .nan) {
            case nil: return (.none, [])
            case .success(let bytes)?: return (.ok, bytes)
            case .failure(let failure)?: return fail(failure.message)
            }
        case .page:
            switch preview.showPage(r.session ?? "", row: r.row ?? -1, page: r.page ?? 0) {
            case nil: return (.none, [])
            case .success(let bytes)?: return (.ok, bytes)
            case .failure(let failure)?: return fail(failure.message)
            }
        case .resize:
            let phone = PhoneSize(
                width: r.width ?? PhoneSize.standard.width, height: r.height ?? PhoneSize.standard.height)
            guard let bytes = preview.resize(r.session ?? "", phone: phone, offset: r.offset ?? 0) else {
                return (.none, [])
            }
            return (.ok, bytes)
        case .retry:
            return preview.retry(r.session ?? "") ? (.ok, []) : (.none, [])
        case .memory:
            let memory = ProcessMemory.current
            return (.ok, Array(#"{"heap":\#(memory.heap),"resident":\#(memory.resident)}"#.utf8))
        case .layout:
            switch preview.layoutJSON(r.file ?? "") {
            case .success(let bytes): return (.ok, bytes)
            case .failure(let failure): return fail(failure.message)
            }
        }
    }

    private func frame(_ header: String, _ payload: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        output.write(Data(header.utf8) + Data(payload))
    }
}
