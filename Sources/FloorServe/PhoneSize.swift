/// A phone or tablet screen the preview lays a page out for: width and screen height in points. Any width
/// from `widths` (280 to 1,024 points: the narrowest phones to a 12.9-inch iPad in portrait) and any height
/// from `heights`; `DevicePreset` names the common ones.
public struct PhoneSize: Sendable, Equatable {
    public let width: Double
    public let height: Double

    public static let widths: ClosedRange<Double> = 280...1024
    public static let heights: ClosedRange<Double> = 320...1366

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// What `floorhost <page> --format json` lays out for when not told (375x812): what `/layout` answers
    /// with, so that it stays byte for byte the CLI's output.
    public static let standard = PhoneSize(width: 375, height: 812)

    /// The screen a `/page/...?device=D&width=W&height=H` request asks for: the device preset (the default
    /// one when there is none), with `width` and `height` where given. Nil and why for a value that is not
    /// a known device or a number in range: a message for the page, naming what is accepted.
    public static func requested(device: Substring?, width: Substring?, height: Substring?) -> Result<
        PhoneSize, RequestedSizeError
    > {
        var size = DevicePreset.default.size
        if let device {
            guard let preset = DevicePreset.named(device) else {
                return .failure(
                    RequestedSizeError(
                        "there is no device '\(device.prefix(40))'; one of: "
                            + DevicePreset.all.map(\.slug).joined(separator: ", ")))
            }
            size = preset.size
        }
        if let width {
            guard let w = Double(width), w.isFinite, widths.contains(w.rounded()) else {
                return .failure(
                    RequestedSizeError(
                        "width '\(width.prefix(20))' is not a width in points from 280 to 1,024; e.g. ?width=393"))
            }
            size = PhoneSize(width: w.rounded(), height: size.height)
        }
        if let height {
            guard let h = Double(height), h.isFinite, heights.contains(h.rounded()) else {
                return .failure(
                    RequestedSizeError(
                        "height '\(height.prefix(20))' is not a screen height in points from 320 to 1,366; e.g. ?height=852"
                    ))
            }
            size = PhoneSize(width: size.width, height: h.rounded())
        }
        return .success(size)
    }
}

/// Why a requested screen size was refused: shown in the page, with the choices.
public struct RequestedSizeError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
