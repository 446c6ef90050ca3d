import FloorCore
import FloorLayout
import HostContract

/// `--tap` prints the action as one JSON object.
public enum TapOutput {
    public static func json(_ action: TapAction) -> String {
        var object: [String: JSONValue] = [
            "section": .int(action.section), "row": .int(action.row), "item": .int(action.item),
            "floor": .string(action.floor), "type": .string(action.type), "url": .string(action.url),
            "params": .object(
                Dictionary(action.params.map { ($0.key, .string($0.value)) }, uniquingKeysWith: { _, last in last })),
        ]
        if let event = action.eventId { object["eventId"] = .string(event) }
        return ControlCharacters.escaped(JSONValue.object(object).serialized()) + "\n"
    }
}
