import FloorCore
import FloorRuntime
import FoundationEssentials

/// Mutated copies of a sample floor for `conform --fuzz`, each fully determined by its seed, so that the
/// seed alone reproduces a case (`--reproduce SEED`). A mutant is 1 to 3 of these, each at a random place
/// in the floor object (never its `type`):
/// - `swap-type`: a value replaced by one of another JSON type;
/// - `remove-field`: an object member removed;
/// - `huge-number`: a value replaced by 1e308, -1e308, 9007199254740993, 1e-320 or -0;
/// - `non-finite`: by 1e999 or -1e999 (valid JSON, infinite as a double);
/// - `long-string`: by a string of 10,000 to 100,000 characters;
/// - `cjk-string`: by CJK text, emoji sequences, combining marks, right-to-left and zero-width characters;
/// - `deep-nesting`: by 100 to 400 nested arrays or objects (a page allows 512 levels);
/// - `many-items`: an array's first element repeated 1,000 to 5,000 times;
/// - `empty`: by [], {} or "".
/// Only mutants that are a valid floor of a page (PageScanner accepts `{"floors":[mutant]}`) are used:
/// the plugin gets exactly the bytes a page would give it.
package enum FloorMutator {
    /// A JSON value whose numbers keep their text, so that 1e999 and 9007199254740993 survive.
    package indirect enum Value: Decodable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Value])
        case object([(String, Value)])

        package init(from decoder: Decoder) throws {
            if var array = try? decoder.unkeyedContainer() {
                var items: [Value] = []
                while !array.isAtEnd { items.append(try array.decode(Value.self)) }
                self = .array(items)
            } else if let object = try? decoder.container(keyedBy: Key.self) {
                self = .object(
                    try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                        ($0.stringValue, try object.decode(Value.self, forKey: $0))
                    })
            } else {
                let single = try decoder.singleValueContainer()
                if single.decodeNil() {
                    self = .null
                } else if let bool = try? single.decode(Bool.self) {
                    self = .bool(bool)
                } else if let number = try? single.decode(Double.self) {
                    self = .number(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)")
                } else {
                    self = .string(try single.decode(String.self))
                }
            }
        }

        package struct Key: CodingKey {
            package let stringValue: String
            package init(stringValue: String) { self.stringValue = stringValue }
            package var intValue: Int? { nil }
            package init?(intValue: Int) { nil }
        }

        package var json: String {
            var out = ""
            write(to: &out)
            return out
        }

        package func write(to out: inout String) {
            switch self {
            case .null: out += "null"
            case .bool(let value): out += value ? "true" : "false"
            case .number(let text): out += text
            case .string(let text): out += FloorSchema.quoted(text)
            case .array(let items):
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += "," }
                    item.write(to: &out)
                }
                out += "]"
            case .object(let members):
                out += "{"
                for (i, (key, value)) in members.enumerated() {
                    if i > 0 { out += "," }
                    out += FloorSchema.quoted(key)
                    out += ":"
                    value.write(to: &out)
                }
                out += "}"
            }
        }
    }

    /// A place in the floor: keys and indices from the floor object down.
    package typealias Path = [PathPart]
    package enum PathPart {
        case key(String)
        case index(Int)
    }

    package static func describe(_ path: Path) -> String {
        var text = ""
        for part in path {
            switch part {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let i): text += "[\(i)]"
            }
        }
        if text.count > 120 { text = String(text.prefix(60)) + "..." + String(text.suffix(50)) }
        return text.isEmpty ? "the floor" : text
    }

    /// The values below the floor object that a mutation may replace (all but its `type`/`pattern`), in
    /// preorder, counted without building their paths: a mutant can hold 100,000 values.
    package static func placeCount(in value: Value, isRoot: Bool = true) -> Int {
        switch value {
        case .array(let items): return items.reduce(items.count) { $0 + placeCount(in: $1, isRoot: false) }
        case .object(let members):
            return members.reduce(0) { total, member in
                isRoot && (member.0 == "type" || member.0 == "pattern")
                    ? total : total + 1 + placeCount(in: member.1, isRoot: false)
            }
        default: return 0
        }
    }

    /// The path of the `index`-th place (preorder, as placeCount counts them) and its value.
    package static func place(_ index: Int, in value: Value, at path: Path = []) -> (Path, Value)? {
        var remaining = index
        func children(_ value: Value, isRoot: Bool) -> [(PathPart, Value)] {
            switch value {
            case .array(let items): return items.enumerated().map { (.index($0.offset), $0.element) }
            case .object(let members):
                return members.filter { !(isRoot && ($0.0 == "type" || $0.0 == "pattern")) }.map { (.key($0.0), $0.1) }
            default: return []
            }
        }
        var node = value
        var current = path
        var isRoot = path.isEmpty
        while true {
            var descended = false
            for (part, child) in children(node, isRoot: isRoot) {
                if remaining == 0 { return (current + [part], child) }
                remaining -= 1
                let below = placeCount(in: child, isRoot: false)
                if remaining < below {
                    node = child
                    current.append(part)
                    isRoot = false
                    descended = true
                    break
                }
                remaining -= below
            }
            if !descended { return nil }
        }
    }

    /// `value` with the value at `path` replaced by `change(old)` (nil removes it from its object or array).
    package static func replacing(_ value: Value, at path: Path, _ change: (Value) -> Value?) -> Value {
        guard let first = path.first else { return change(value) ?? .null }
        let rest = Array(path.dropFirst())
        switch (value, first) {
        case (.array(var items), .index(let i)) where i < items.count:
            if rest.isEmpty, change(items[i]) == nil {
                items.remove(at: i)
            } else {
                items[i] = replacing(items[i], at: rest, change)
            }
            return .array(items)
        case (.object(var members), .key(let key)):
            guard let i = members.firstIndex(where: { $0.0 == key }) else { return value }
            if rest.isEmpty, change(members[i].1) == nil {
                members.remove(at: i)
            } else {
                members[i].1 = replacing(members[i].1, at: rest, change)
            }
            return .object(members)
        default: return value
        }
    }

    package static let maxBytes = 2_000_000
    package static let maxPlaces = 20_000

    /// About how many bytes `value` takes as JSON (strings by their UTF-8 length, 8 bytes for anything else).
    package static func estimatedBytes(_ value: Value) -> Int {
        switch value {
        case .string(let text): return text.utf8.count + 2
        case .array(let items): return items.reduce(2) { $0 + 1 + estimatedBytes($1) }
        case .object(let members): return members.reduce(2) { $0 + $1.0.utf8.count + 4 + estimatedBytes($1.1) }
        default: return 8
        }
    }

    package static let kinds = [
        "swap-type", "remove-field", "huge-number", "non-finite", "long-string", "cjk-string", "deep-nesting",
        "many-items", "empty",
    ]

    package static let strangeText = [
        "商品标题很长很长的中文标题，还有更多的字", "👨‍👩‍👧‍👦🏳️‍🌈🇨🇳", "e\u{301}\u{301}\u{301}\u{301}", "\u{202E}gnp.exe", "\u{200B}\u{200D}\u{FEFF}",
        "ｆｕｌｌｗｉｄｔｈ　ＴＥＸＴ", "한국어 텍스트", "\u{0}\u{1}\u{1B}[31m",
    ]

    /// One mutant of `floor` (the sample's bytes): the bytes and what was done ("long-string at
    /// items[1].id (31,416 characters); remove-field at jump"), or nil when the sample is not JSON.
    package static func mutate(_ floor: [UInt8], _ random: inout SeededRandom) -> (bytes: [UInt8], mutations: String)? {
        guard var value = try? JSONDecoder().decode(Value.self, from: Data(floor)) else { return nil }
        var done: [String] = []
        for _ in 0..<random.int(1...3) {
            let before = value
            let applied = done.count
            defer {
                // A mutant stays small enough to make quickly and to decode many of in a batch (a page
                // could be larger): at most maxPlaces values and about maxBytes bytes.
                if done.count > applied && (placeCount(in: value) > maxPlaces || estimatedBytes(value) > maxBytes) {
                    value = before
                    done.removeLast()
                }
            }
            let count = placeCount(in: value)
            guard count > 0, let (path, old) = place(random.int(0...(count - 1)), in: value) else { break }
            let kind = random.pick(kinds)
            let at = describe(path)
            switch kind {
            case "swap-type":
                let options: [Value] = [
                    .null, .bool(true), .number("0"), .number("-1"), .string("wrongly typed"), .array([]), .object([]),
                    .array([old]), .object([("value", old)]),
                ]
                let new = random.pick(options.filter { kindName($0) != kindName(old) })
                value = replacing(value, at: path) { _ in new }
                done.append("swap-type at \(at) (\(kindName(old)) -> \(kindName(new)))")
            case "remove-field":
                value = replacing(value, at: path) { _ in nil }
                done.append("remove-field at \(at)")
            case "huge-number":
                let number = random.pick([
                    "1e308", "-1e308", "9007199254740993", "1e-320", "-0", "18446744073709551616",
                ])
                value = replacing(value, at: path) { _ in .number(number) }
                done.append("huge-number at \(at) (\(number))")
            case "non-finite":
                let number = random.pick(["1e999", "-1e999"])
                value = replacing(value, at: path) { _ in .number(number) }
                done.append("non-finite at \(at) (\(number))")
            case "long-string":
                let length = random.int(10_000...100_000)
                let unit = random.pick(["a", "长", "W", "🙂", "ab cd "])
                let text = String(String(repeating: unit, count: length / unit.count + 1).prefix(length))
                value = replacing(value, at: path) { _ in .string(text) }
                done.append("long-string at \(at) (\(length) characters of '\(unit)')")
            case "cjk-string":
                let text = random.pick(strangeText)
                value = replacing(value, at: path) { _ in .string(text) }
                done.append(
                    "cjk-string at \(at) (\(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : PrintfFormat.string("\\u%04X", $0.value) }.joined()))"
                )
            case "deep-nesting":
                let depth = random.int(100...400)
                let arrays = random.int(0...1) == 0
                var nested: Value = old
                for _ in 0..<depth { nested = arrays ? .array([nested]) : .object([("a", nested)]) }
                value = replacing(value, at: path) { _ in nested }
                done.append("deep-nesting at \(at) (\(depth) levels of \(arrays ? "arrays" : "objects"))")
            case "many-items":
                let count = random.int(1_000...5_000)
                value = replacing(value, at: path) { old in
                    if case .array(let items) = old, let first = items.first {
                        return .array(Array(repeating: first, count: count))
                    }
                    return .array(Array(repeating: old, count: count))
                }
                done.append("many-items at \(at) (\(count) copies)")
            default:
                let new = random.pick([Value.array([]), .object([]), .string("")])
                value = replacing(value, at: path) { _ in new }
                done.append("empty at \(at) (\(new.json))")
            }
        }
        return (Array(value.json.utf8), done.joined(separator: "; "))
    }

    /// The mutant for people (`--reproduce`): each string over 40 characters cut to its first 20, saying
    /// how long it was, and the whole at most `limit` characters. Works on the text, so numbers a double
    /// cannot hold (1e999) stay as they are.
    package static func abbreviated(_ bytes: [UInt8], limit: Int = 1500) -> String {
        var out = ""
        var literal = ""
        var inString = false
        var escaped = false
        for character in String(decoding: bytes, as: UTF8.self) {
            guard inString else {
                out.append(character)
                if character == "\"" {
                    inString = true
                    literal = ""
                }
                continue
            }
            if escaped {
                escaped = false
                literal.append(character)
                continue
            }
            if character == "\\" {
                escaped = true
                literal.append(character)
                continue
            }
            if character == "\"" {
                out += literal.count > 40 ? String(literal.prefix(20)) + "...(\(literal.count) characters)" : literal
                out.append(character)
                inString = false
                continue
            }
            literal.append(character)
        }
        if inString { out += literal }
        return out.count > limit ? String(out.prefix(limit)) + "...(\(out.count) characters in all)" : out
    }

    package static func kindName(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
