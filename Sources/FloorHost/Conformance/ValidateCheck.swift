/// The `validate` check: a floor type's validator (ABI 1.1, optional; the seed's TemplateValidationProtocol)
/// accepts the plugin's own samples, since a sample must be a floor a page would show. A type without a
/// validator passes. (Refusing a copy broken per the floor's schema, with a path, belongs to the schema of
/// ABI 1.2's part A and is not judged here yet.)
extension BehaviourChecks {
    static func validateSamples(_ plugin: PluginUnderTest, _ samples: SampleSet) throws(ConformanceFailure) {
        for sample in samples.samples {
            let type = plugin.floorType(sample.floorType)
            guard let validate = type.validate else { continue }
            try plugin.withModel(sample) { model, _ throws(ConformanceFailure) in
                plugin.step("\(validate.name) on \(sample.label)")
                guard let verdict = plugin.validate(sample.floorType, model), !verdict.valid else { return }
                let why = verdict.errors.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" }.joined(separator: "; ")
                throw ConformanceFailure("\(validate.name) rejected \(sample.label): \(why.isEmpty ? "no reason given" : why); a sample must be a floor the page would show")
            }
        }
    }
}
