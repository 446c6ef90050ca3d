import FloorLayout
import Foundation
import HostContract

/// `--tap` prints the action as one JSON object.
public enum TapOutput {
    public static func json(_ action: TapAction) -> String {
        var object: [String: Any] = [
            "section": action.section, "row": action.row, "item": action.item, "floor": action.floor,
            "type": action.type, "url": action.url,
            "params": Dictionary(action.params.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }),
        ]
        if let event = action.eventId { object["eventId"] = event }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return ControlCharacters.escaped(String(decoding: data, as: UTF8.self)) + "\n"
    }
}
