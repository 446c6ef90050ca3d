/// A value of a floor's JSON declared field by field: one declaration is both how it decodes and what its
/// schema says (the schema `floorhost schema` exports and the host checks every floor against), so the two
/// cannot disagree. The model's initializer reads each field from `Fields`:
///
///     struct Icon: Declared {
///         var id: String
///         var title: String
///         var jump: Jump?
///
///         init(_ f: Fields) throws(DecodeError) {
///             id = try f.string("id", "The icon's id.")
///             title = try f.string("title", "The label under the icon.", .nonEmpty)
///             jump = try f.value("jump", "Where a tap on the icon goes.")
///         }
///     }
///
/// A property of an optional type is an optional field (absent or null: nil); any other is required. The
/// initializer runs in two ways: decoding a floor, straight from its parsed bytes (no decoder object per
/// value, no coding path, nothing allocated but the values' own strings and arrays), and once when the
/// plugin loads, describing (each read notes its field's schema and returns a placeholder). So it holds
/// reads only: a rule a read does not state (a range, non-empty text, a list's minimum length) is not in
/// the schema, and the property test (DeclaredSchemaPropertyTests) would find the two apart.
///
/// Imports nothing, no existential, no reflection: Decoding/ compiles under Embedded Swift
/// (Scripts/wasm-decode).
public protocol Declared {
    init(_ f: Fields) throws(DecodeError)
}

/// Why a value does not decode: the node of the tape at fault (or the object missing a field, with that
/// field's name) and the sentence a CMS editor reads. Its JSON path is found from the node only when the
/// error is reported (`DecodeContext.path`), so a successful decode builds no path at all.
public struct DecodeError: Error {
    let node: Int32
    let missing: StaticString?
    let message: String

    init(node: Int32, missing: StaticString? = nil, _ message: String) {
        self.node = node
        self.missing = missing
        self.message = message
    }
}

/// A problem found while decoding, with its path relative to the floor object ("items[2].price").
public struct DecodeProblem {
    public var path: String
    public var message: String
}

/// What one decode of a floor object gives: the value, or the error that refused it; and the items
/// `Fields.list(_:_:dropping:)` left out on the way (each a problem "...; item left out").
public struct DecodeOutcome<Value> {
    public var value: Value?
    public var error: DecodeProblem?
    public var leftOut: [DecodeProblem]
}

/// Decoding a floor object's bytes through a declaration.
public enum DeclaredDecoding {
    /// Parses `bytes` (one JSON value, the floor object) and runs `read` on its root object.
    public static func decode<Value>(
        _ bytes: UnsafeRawBufferPointer, _ read: (Fields) throws(DecodeError) -> Value
    ) -> DecodeOutcome<Value> {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            let message = "The given data was not valid JSON: \(error.message) at byte \(error.offset)."
            return DecodeOutcome(value: nil, error: DecodeProblem(path: "", message: message), leftOut: [])
        }
        // The context holds the tape, so its nodes stay valid through the read.
        var context = DecodeContext(tape: tape, nodes: tape.nodes.baseAddress!)
        return withUnsafeMutablePointer(to: &context) { context in
            do throws(DecodeError) {
                let root = Fields(context: context, node: 0)
                guard context.pointee.nodes[0].kind == .object else { throw root.mismatch(0, "an object") }
                let value = try read(root)
                context.pointee.texts?.fit()
                return DecodeOutcome(value: value, error: nil, leftOut: context.pointee.leftOut)
            } catch {
                let problem = context.pointee.problem(error)
                return DecodeOutcome(value: nil, error: problem, leftOut: context.pointee.leftOut)
            }
        }
    }

    /// Decodes a `Value` from the floor object in `bytes`.
    public static func decode<Value: Declared>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer)
        -> DecodeOutcome<Value>
    {
        decode(bytes) { f throws(DecodeError) in try Value(f) }
    }

    /// The declaration of `type`, as its initializer states it when run describing.
    public static func declaration<Value: Declared>(of type: Value.Type) -> DeclaredNode {
        let node = DeclaredNode(kinds: .object)
        _ = try? Value(Fields(describing: node))
        return node
    }
}

/// One decode's state, on the decoding thread's stack: the tape and the items left out so far.
@usableFromInline
struct DecodeContext {
    let tape: JSONTape
    let nodes: UnsafePointer<JSONTape.Node>
    var leftOut: [DecodeProblem] = []
    /// Where the model's texts go (Fields.text): reserved at the floor's byte count when the first is
    /// read, fitted to what they hold when the decode ends.
    var texts: TextBuffer?
    /// Where `Fields.member` resumes in the object it last found a member of: that object's node, the
    /// key node of the member after the one found (or the object's end), and that member's ordinal.
    var resume: (object: Int32, member: Int32, ordinal: Int32) = (-1, 0, 0)

    /// The decode's text buffer, made when the first text is read.
    @inline(__always)
    mutating func textBuffer() -> TextBuffer {
        if let texts { return texts }
        let made = TextBuffer(capacity: tape.bytes.count)
        texts = made
        return made
    }

    init(tape: JSONTape, nodes: UnsafePointer<JSONTape.Node>) {
        self.tape = tape
        self.nodes = nodes
    }

    func problem(_ error: DecodeError) -> DecodeProblem {
        var path = path(to: error.node)
        if let missing = error.missing {
            if !path.isEmpty { path += "." }
            path += missing.text
        }
        return DecodeProblem(path: path, message: error.message)
    }

    /// The JSON path of `target` from the root ("items[2].price"), found by descending the tape: each
    /// container's subtree is a contiguous run of nodes. O(depth x members); only on the error path.
    func path(to target: Int32) -> String {
        var out = ""
        var at: Int32 = 0
        descend: while at != target {
            let node = nodes[Int(at)]
            var child = at + 1
            for index in 0..<node.count {
                let value = node.kind == .object ? child + 1 : child
                let end = nodes[Int(value)].next
                if target >= value && target < end {
                    if node.kind == .object {
                        if !out.isEmpty { out += "." }
                        out += tape.string(nodes[Int(child)])
                    } else {
                        out += "[\(index)]"
                    }
                    at = value
                    continue descend
                }
                child = end
            }
            break
        }
        return out
    }
}

extension StaticString {
    /// The text, for messages and schemas.
    var text: String {
        String(decoding: UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount), as: UTF8.self)
    }
}
