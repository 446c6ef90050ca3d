import FloorCore
import FloorRuntime
import FoundationEssentials

/// The `validate` check, in two halves.
/// - A floor type's validator (ABI 1.1, optional: data checks before drawing) accepts the
///   plugin's own samples, since a sample must be a floor a page would show. A type without a validator
///   passes this half.
/// - A copy of each sample broken per the floor type's declared schema (ABI 1.3 `schema_json`) is refused
///   with a path: for every field the schema requires and the sample has, one copy without it and one with
///   it given a value of a type the schema does not allow. Required fields are taken at the root (other
///   than type, pattern and id) and inside it: in an object field (`header.title`) and in the first element
///   of an array field (`items[0].label`), at every depth the sample reaches. The decoder must refuse each
///   (NULL, report->error at that field or inside it), or the validator must (false, with such a path): a
///   schema that requires what the plugin does not is a schema that lies to the editors reading it. The
///   host's schema check of a page only warns and still decodes the floor, so it is the plugin's refusal
///   that shows the field really is required. One refusal is narrower than the floor: a field inside an
///   element of a list may instead cost just that element, reported as a warning (the validator returns
///   true with a path at the field or at the element, as the SDK's `@DroppingBrokenItems` and floor_abi.h's
///   `validate` describe), since the element is then not shown without its field either. A type without a
///   schema passes this half.
extension BehaviourChecks {
    package static func validateSamples(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            guard let validate = type.validate else { continue }
            try plugin.withModel(sample) { model, _ throws(ConformanceFailure) in
                plugin.step("\(validate.name) on \(sample.label)")
                guard let verdict = plugin.validate(sample.floorType, model), !verdict.valid else { return }
                let why = verdict.errors.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(
                    separator: "; ")
                throw ConformanceFailure(
                    "\(validate.name) rejected \(sample.label): \(why.isEmpty ? "no reason given" : why); a sample must be a floor the page would show"
                )
            }
        }
        for sample in samples.samples {
            for broken in brokenPerSchema(sample, plugin.floorType(sample.floorType)) {
                try expectRefusal(plugin, sample, broken)
            }
        }
    }

    /// A copy of a sample that its floor type's schema says no page may carry.
    package struct SchemaBrokenCopy {
        /// The JSON path of the field broken, relative to the floor: "title", "header.title", "items[0].label".
        package let field: String
        /// The field's own name ("label"), and where the schema requires it: "" at the root, else the path of
        /// the object holding it in schema terms ("header", "items[]").
        package let name: String, requiredAt: String
        /// The array elements the field is inside ("items[0]"), outermost first: each may be left out with a
        /// warning instead of the floor being refused.
        package let elements: [String]
        /// "with required field 'title' removed", "with required field 'items[0].label' given true".
        package let what: String
        package let bytes: [UInt8]
    }

    /// One step of a JSON path into a sample.
    private enum Step {
        case key(String)
        case index(Int)
    }

    /// The copies of `sample` broken per `type`'s schema: each required field the sample has, removed, then
    /// given a value of a kind the schema does not allow (when there is one). Root fields first, then those
    /// of each object field and of the first element of each array field, depth first, in schema order. The
    /// host reads type, pattern and id itself, so those root fields are left alone. A sample is a few
    /// hundred bytes and each field it has is broken at most twice, so the copies are few.
    package static func brokenPerSchema(_ sample: SampleSet.Sample, _ type: Registry.FloorType) -> [SchemaBrokenCopy] {
        guard let schema = type.schema?.floorObject,
            case .object(let root)? = JSONValue.parse(sample.bytes)
        else { return [] }
        let hostFields: Set<String> = ["type", "pattern", "id"]
        var copies: [SchemaBrokenCopy] = []
        func text(_ steps: [Step], schemaTerms: Bool = false) -> String {
            var out = ""
            for step in steps {
                switch step {
                case .key(let key): out += out.isEmpty ? key : "." + key
                case .index(let index): out += schemaTerms ? "[]" : "[\(index)]"
                }
            }
            return out
        }
        func copy(_ steps: [Step], _ name: String, _ what: String, _ value: JSONValue?) {
            guard let object = replacing(.object(root), steps[...], with: value), case .object = object else { return }
            let data = object.serialized()
            let elements = steps.indices.filter { if case .index = steps[$0] { true } else { false } }.map {
                text(Array(steps[...$0]))
            }
            let field = text(steps)
            copies.append(
                SchemaBrokenCopy(
                    field: field, name: name, requiredAt: text(steps.dropLast(), schemaTerms: true),
                    elements: elements, what: "with required field '\(field)' \(what)", bytes: Array(data.utf8)))
        }
        func visit(_ schema: FloorSchema, _ object: [String: JSONValue], at steps: [Step]) {
            for name in schema.required where !(steps.isEmpty && hostFields.contains(name)) && object[name] != nil {
                let here = steps + [.key(name)]
                copy(here, name, "removed", nil)
                let kinds = schema.properties.first { $0.name == name }?.schema.kinds ?? .any
                let wrong: (JSONValue, String)? =
                    !kinds.contains(.string)
                    ? (.string("wrongly typed"), "a string")
                    : !kinds.contains(.number) && !kinds.contains(.integer)
                        ? (.int(12345), "a number")
                        : !kinds.contains(.boolean)
                            ? (.bool(true), "true")
                            : !kinds.contains(.array)
                                ? (.array([]), "an array")
                                : !kinds.contains(.object) ? (.object([:]), "an object") : nil
                if let (value, said) = wrong { copy(here, name, "given \(said)", value) }
            }
            guard steps.count < FloorSchema.maxDepth else { return }
            for (name, property) in schema.properties where !(steps.isEmpty && hostFields.contains(name)) {
                if case .object(let inner)? = object[name] {
                    visit(property, inner, at: steps + [.key(name)])
                } else if case .array(let list)? = object[name], case .object(let first)? = list.first,
                    let element = property.items
                {
                    visit(element, first, at: steps + [.key(name), .index(0)])
                }
            }
        }
        visit(schema, root, at: [])
        return copies
    }

    /// `node` with the value at `steps` replaced by `value` (nil: removed). Every step but the last exists in
    /// `node`, since `brokenPerSchema` walks only what the sample has.
    private static func replacing(_ node: JSONValue, _ steps: ArraySlice<Step>, with value: JSONValue?)
        -> JSONValue?
    {
        guard let step = steps.first else { return value }
        switch step {
        case .key(let key):
            guard case .object(var object) = node else { return node }
            object[key] =
                steps.count == 1 ? value : object[key].flatMap { replacing($0, steps.dropFirst(), with: value) }
            return .object(object)
        case .index(let index):
            guard case .array(var list) = node, list.indices.contains(index),
                let element = replacing(list[index], steps.dropFirst(), with: value)
            else { return node }
            list[index] = element
            return .array(list)
        }
    }

    /// The decoder refuses `broken` with a path at or inside its broken field, or, when it decodes it, the
    /// validator does; or, for a field inside an array element, the validator accepts the floor with a
    /// warning at that field or that element (the element left out, as `@DroppingBrokenItems` does).
    package static func expectRefusal(_ plugin: PluginUnderTest, _ sample: SampleSet.Sample, _ broken: SchemaBrokenCopy)
        throws(ConformanceFailure)
    {
        let type = plugin.floorType(sample.floorType)
        func atField(_ path: String) -> Bool {
            path == broken.field || path.hasPrefix(broken.field + ".") || path.hasPrefix(broken.field + "[")
        }
        func listed(_ errors: [(path: String, message: String)]) -> String {
            errors.prefix(3).map { $0.path.isEmpty ? "(no path): \($0.message)" : "\($0.path): \($0.message)" }.joined(
                separator: "; ")
        }
        let copy = "\(sample.label) \(broken.what)"
        plugin.step("\(type.decode.name) on \(copy)")
        let decoded = plugin.decode(sample.floorType, broken.bytes)
        guard let model = decoded.model else {
            if decoded.errors.contains(where: { atField($0.path) }) { return }
            throw ConformanceFailure(
                "\(type.decode.name) refused \(copy), but reported \(decoded.errors.isEmpty ? "no reason" : listed(decoded.errors)); report->error with the path '\(broken.field)' (or one inside it), so a page's editor can find the field"
            )
        }
        defer { plugin.destroy(sample.floorType, model) }
        if let validate = type.validate {
            plugin.step("\(validate.name) on \(copy)")
            if let verdict = plugin.validate(sample.floorType, model) {
                if !verdict.valid {
                    if verdict.errors.contains(where: { atField($0.path) }) { return }
                    throw ConformanceFailure(
                        "\(validate.name) refused \(copy), but reported \(verdict.errors.isEmpty ? "no reason" : listed(verdict.errors)); report the path '\(broken.field)' (or one inside it)"
                    )
                }
                // The element holding the field left out, with a warning saying so: the floor is shown
                // without that element, which is how a list stays usable when one of its items is broken.
                if !broken.elements.isEmpty,
                    verdict.errors.contains(where: { atField($0.path) || broken.elements.contains($0.path) })
                {
                    return
                }
            }
        }
        if broken.requiredAt.isEmpty {
            throw ConformanceFailure(
                "\(type.decode.name) accepted \(copy) (\(preview(broken.bytes))), which the schema_json of '\(type.name)' forbids; refuse it in the decoder with the path '\(broken.field)', or, if the floor can do without it, take '\(broken.field)' out of the schema's \"required\" or widen its \"type\""
            )
        }
        let leaveOut =
            broken.elements.last.map {
                " (or leave out just '\($0)' and report that path as a warning from the validator, as @DroppingBrokenItems does)"
            } ?? ""
        throw ConformanceFailure(
            "\(type.decode.name) accepted \(copy) (\(preview(broken.bytes))), which the schema_json of '\(type.name)' forbids; refuse it in the decoder with the path '\(broken.field)'\(leaveOut), or, if the floor can do without it, take '\(broken.name)' out of the \"required\" of '\(broken.requiredAt)' in the schema or widen its \"type\""
        )
    }
}
