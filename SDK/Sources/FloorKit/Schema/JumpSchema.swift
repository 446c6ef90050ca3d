/// Every floor's taps go through Jump, so its schema, with descriptions, is written once here.
extension Jump: JSONSchemaDescribed {
    public static var jsonSchema: JSONSchema {
        JSONSchema(
            types: ["object"], description: "Where a tap goes.",
            properties: [
                ("url", JSONSchema(types: ["string"], description: "The app route or web address a tap opens.")),
                ("eventId", JSONSchema(types: ["string"], description: "The analytics event a tap reports.")),
            ],
            required: ["url"], additionalProperties: false)
    }
}
