import CFloorABI

/// The floor_report_t a decoder (or validate, or extend) writes its problems into, in order. Valid only
/// inside `withReport`.
public final class DecodeReport {
    /// A reported path (relative to the floor object, "" for the floor itself, as the ABI says) placed
    /// under the floor's own path in the page: "floors[3]" + "items[2].price".
    public static func path(_ relative: String, in floor: String) -> String {
        relative.isEmpty ? floor : "\(floor).\(relative)"
    }

    public private(set) var errors: [(path: String, message: String)] = []

    public init() {}

    public func withReport<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        var report = floor_report_t(host_data: Unmanaged.passUnretained(self).toOpaque()) { report, path, message in
            guard let data = report?.pointee.host_data else { return }
            let sink = Unmanaged<DecodeReport>.fromOpaque(data).takeUnretainedValue()
            sink.errors.append((path.map { String(cString: $0) } ?? "", message.map { String(cString: $0) } ?? ""))
        }
        return withUnsafeMutablePointer(to: &report) { body(UnsafeMutableRawPointer($0)) }
    }
}
