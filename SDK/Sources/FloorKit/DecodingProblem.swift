/// A decoding error as the ABI reports it: a JSON path relative to the floor ("items[2].price") and a
/// sentence a CMS editor can act on.
struct DecodingProblem {
    var path: String
    var message: String

    init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            path = ""
            message = "\(error)"
            return
        }
        switch error {
        case .typeMismatch(let type, let context):
            path = Self.path(context.codingPath)
            // Foundation says "Expected to decode String but found number instead."; keep only what was found.
            // (The standard library's own string search: FloorKit links no Foundation, nor does a plugin.)
            let found = context.debugDescription.firstRange(of: "found ")
                .map { context.debugDescription[$0.upperBound...].replacing(" instead.", with: "") }
            message = "expected \(Self.describe(type))" + (found.map { ", found \($0)" } ?? "")
        case .valueNotFound(let type, let context):
            path = Self.path(context.codingPath)
            message = "expected \(Self.describe(type)), found null"
        case .keyNotFound(let key, let context):
            path = Self.path(context.codingPath + [key])
            message = "required field is missing"
        case .dataCorrupted(let context):
            path = Self.path(context.codingPath)
            message = context.debugDescription
        @unknown default:
            path = ""
            message = "\(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
