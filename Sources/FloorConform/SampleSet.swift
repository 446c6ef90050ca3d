import FloorCore
import FloorRuntime
import FoundationEssentials

/// The sample floors a plugin ships, which the behaviour checks feed to its selectors: each floor type's
/// `sample_json` from its registration, plus every floor of an optional samples page beside the library,
/// `<library name without .so>.samples.json` (a page: `{"floors":[...]}`, so it also renders with
/// floorhost). Every floor type the plugin registers needs at least one sample.
package struct SampleSet {
    package struct Sample {
        /// The registry's floor type id.
        package let floorType: Int32
        package let bytes: [UInt8]
        /// For messages: "sample 2 ('Badge' floor 'b1' from libBadge.samples.json)".
        package let label: String
        /// For file names (snapshots): "Badge" for a registration's sample, "Badge-b1" for floor 'b1' of
        /// the samples page; only letters, digits, '.', '_' and '-'.
        package var name: String = ""

        package init(floorType: Int32, bytes: [UInt8], label: String, name: String = "") {
            self.floorType = floorType
            self.bytes = bytes
            self.label = label
            self.name = name
        }
    }

    package let samples: [Sample]

    /// The samples page for `library`: "dir/libBadge.so" -> "dir/libBadge.samples.json".
    package static func samplesFile(for library: String) -> String {
        (library.hasSuffix(".so") ? String(library.dropLast(3)) : library) + ".samples.json"
    }

    /// Collects the samples of `plugin` (a registry plugin index) loaded from `library`, or says why they
    /// are unusable (a floor type without a sample, a samples page that does not parse or names a type
    /// this plugin does not register).
    package static func collect(library: String, plugin: Int, registry: Registry) -> Result<
        SampleSet, ConformanceFailure
    > {
        var samples: [Sample] = []
        let types = registry.floorTypes.indices.filter {
            registry.floorTypes[$0].plugin == plugin
                && registry.floorTypeID(named: registry.floorTypes[$0].name) == Int32($0)
        }
        for index in types {
            let type = registry.floorTypes[index]
            guard let json = type.sampleJSON, !json.isEmpty else { continue }
            samples.append(
                Sample(
                    floorType: Int32(index), bytes: Array(json.utf8),
                    label: "sample \(samples.count + 1) ('\(type.name)' from its registration)",
                    name: fileSafe(type.name)))
        }
        let file = samplesFile(for: library)
        let name = PathText.lastComponent(of: file)
        if let data = FileManager.default.contents(atPath: file) {
            let bytes = [UInt8](data)
            let page: PageSpec
            do {
                page = try PageScanner.scan(bytes)
            } catch {
                return .failure(.init("\(file):\(error.description) (the samples page must be {\"floors\":[...]})"))
            }
            for floor in page.floors {
                let path = "\(name): floors[\(floor.index)]"
                guard let typeName = floor.type else { return .failure(.init("\(path) has no type")) }
                guard let id = registry.floorTypeID(named: typeName), registry.floorTypes[Int(id)].plugin == plugin
                else {
                    return .failure(.init("\(path) has type '\(typeName)', which this plugin does not register"))
                }
                samples.append(
                    Sample(
                        floorType: id, bytes: Array(bytes[floor.bytes]),
                        label: "sample \(samples.count + 1) ('\(typeName)' floor '\(floor.id ?? "?")' from \(name))",
                        name: fileSafe("\(typeName)-\(floor.id ?? "floors\(floor.index)")")))
            }
        }
        let missing = types.filter { index in !samples.contains { $0.floorType == Int32(index) } }
        if let first = missing.first {
            let names = missing.map { "'\(registry.floorTypes[$0].name)'" }.joined(separator: ", ")
            return .failure(
                .init(
                    "floor type\(missing.count > 1 ? "s" : "") \(names) ship\(missing.count > 1 ? "" : "s") no sample JSON; set sample_json when registering '\(registry.floorTypes[first].name)' (FloorModel.sampleJSON in the SDK) or list one in \(name)"
                ))
        }
        if types.isEmpty { return .failure(.init("the plugin registers no floor type, so nothing can be checked")) }
        return .success(SampleSet(samples: samples))
    }
}

/// `text` with every character other than a letter, digit, '.', '_' or '-' replaced by '_'.
package func fileSafe(_ text: String) -> String {
    let safe = String(
        text.unicodeScalars.map {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                ? Character($0) : "_"
        })
    return safe.hasPrefix(".") ? "_" + safe.dropFirst() : safe
}
