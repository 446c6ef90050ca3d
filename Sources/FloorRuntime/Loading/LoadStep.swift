/// The steps of loading one plugin library, in the order PluginLoader takes them. Every refusal the loader
/// reports belongs to exactly one step, which is what `floorhost conform` names as the failing check.
public enum LoadStep: String, Sendable, CaseIterable, Codable {
    /// dlopen accepts the file (a shared object for this machine, its dependencies found).
    case open
    /// The library exports FLOOR_PLUGIN_ENTRY_SYMBOL and it returns a descriptor.
    case entrySymbol
    /// The descriptor's ABI major equals the host's and its minor is not newer; its struct is big enough.
    case abiVersion
    /// The descriptor names a non-empty id, name and version, and has an init function.
    case descriptor
    /// No plugin with the same id is loaded already.
    case uniqueID
    /// `init` runs, returns true, and every registration struct is well formed.
    case registration
    /// Every registered type name is non-empty and not taken (by this plugin or another).
    case typeNames
    /// Every selector has a function and the signature its slot expects.
    case selectorSignatures

}
