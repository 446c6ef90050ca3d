/// The devices the preview's device menu offers, named after real phones and tablets (portrait screen
/// sizes in points, as each maker states them). `slug` is what a URL says (`?device=iphone-16`).
public struct DevicePreset: Sendable, Equatable {
    public let slug: String
    public let name: String
    public let size: PhoneSize

    init(_ slug: String, _ name: String, _ width: Double, _ height: Double) {
        self.slug = slug
        self.name = name
        self.size = PhoneSize(width: width, height: height)
    }

    public static let all = [
        DevicePreset("iphone-se", "iPhone SE (1st gen)", 320, 568),
        DevicePreset("iphone-se-3", "iPhone SE (3rd gen)", 375, 667),
        DevicePreset("iphone-13-mini", "iPhone 13 mini", 375, 812),
        DevicePreset("galaxy-s24", "Galaxy S24", 360, 780),
        DevicePreset("iphone-14", "iPhone 14", 390, 844),
        DevicePreset("iphone-16", "iPhone 16", 393, 852),
        DevicePreset("pixel-8", "Pixel 8", 412, 915),
        DevicePreset("iphone-11", "iPhone 11", 414, 896),
        DevicePreset("iphone-16-plus", "iPhone 16 Plus", 430, 932),
        DevicePreset("iphone-16-pro-max", "iPhone 16 Pro Max", 440, 956),
        DevicePreset("ipad-mini", "iPad mini", 744, 1133),
        DevicePreset("ipad-air", "iPad Air 11-inch", 820, 1180),
        DevicePreset("ipad-pro-13", "iPad Pro 13-inch", 1024, 1366),
    ]

    /// What a page opens on when the URL names no device: an iPhone 16, 393x852.
    public static let `default` = all[5]

    public static func named(_ slug: Substring) -> DevicePreset? { all.first { $0.slug == slug } }

    /// The preset of exactly this size, if there is one.
    public static func of(_ size: PhoneSize) -> DevicePreset? { all.first { $0.size == size } }
}
