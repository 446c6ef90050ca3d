import FloorCore
import FloorText

/// Where floorhost keeps what it works out of the fonts' layout tables between runs (FloorText's FontFactsCache):
/// $FLOORKIT_FONT_CACHE (a directory; "off": nowhere, every process works them out), else
/// $XDG_CACHE_HOME/floorkit/font-facts, else ~/.cache/floorkit/font-facts. Beside the plugin scan cache
/// (PluginScanCache.defaultFile), and as disposable: a file that does not match the font or HarfBuzz installed is
/// read again from the tables and rewritten.
enum FontFactsLocation {
    static var directory: String? {
        if let folder = ProcessEnvironment.value("FLOORKIT_FONT_CACHE"), !folder.isEmpty {
            return folder == "off" ? nil : folder
        }
        let base =
            ProcessEnvironment.value("XDG_CACHE_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? PathText.appending(".cache", to: PathText.homeDirectory)
        return PathText.appending("floorkit/font-facts", to: base)
    }
}
