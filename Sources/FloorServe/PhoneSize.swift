/// The phone screens the preview offers (the width switch): width and screen height in points.
public struct PhoneSize: Sendable, Equatable {
    public let width: Double
    public let height: Double

    public static let all = [
        PhoneSize(width: 320, height: 568), PhoneSize(width: 375, height: 812), PhoneSize(width: 414, height: 896),
    ]
    public static let standard = all[1]

    /// The size for a `?width=` value; nil for any other value (a 400 names the choices).
    public static func named(_ width: Substring?) -> PhoneSize? {
        guard let width else { return standard }
        return all.first { "\(Int($0.width))" == width }
    }
}
