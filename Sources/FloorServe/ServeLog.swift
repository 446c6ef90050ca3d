import Foundation
import HostContract

/// The lines `serve` prints to its terminal as it runs, besides where it listens: one for each plugin
/// change (which libraries were added, rebuilt or removed, and how many tabs were updated) and one for
/// each page error (`file:line:column: reason`, relative to the root). Control characters a page or
/// plugin supplied are shown as `\uXXXX`, as in every other output.
public enum ServeLog {
    public static let standardOutput: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data(("floorhost serve: " + ControlCharacters.escaped(line) + "\n").utf8))
    }
}
