/// Every floor's taps go through Jump: Codable models get the schema its declaration states.
extension Jump: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        var schema = JSONSchema.declared(Jump.self)
        schema.description = "Where a tap goes."
        return schema
    }
}
