import CFloorABI

/// What `floorhost --version` prints: the host's version and the plugin ABI it loads (a plugin built for
/// the same major and this minor or an older one).
public enum Version {
    public static let host = "0.11.0"
    public static let abi = "\(FLOOR_ABI_MAJOR).\(FLOOR_ABI_MINOR)"
    public static let line = "floorhost \(host) (plugin ABI \(abi))"
}
