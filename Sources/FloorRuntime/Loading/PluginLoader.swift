import CFloorABI
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Opens plugin libraries and registers what they bring. Every failure is one diagnostic naming the file
/// and the reason; loading always goes on with the next library.
///
/// Libraries are opened RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE and never closed: unloading a Swift library
/// leaves the runtime pointing into unmapped memory.
public enum PluginLoader {
    /// One reason a library (or one of its registrations) was refused, and the load step it belongs to.
    public struct Refusal: Sendable, Equatable {
        public let step: LoadStep
        public let diagnostic: Diagnostic
    }

    /// Loads every library under `folder` (see PluginDiscovery) that `trust` lets through into `registry`.
    public static func loadFolder(
        _ folder: String, into registry: Registry,
        trust: PluginTrust = PluginTrust()
    ) throws(PluginDiscovery.Failure) -> [Diagnostic] {
        let (libraries, vetting) = try trust.vet(try PluginDiscovery.libraries(in: folder), in: folder)
        return vetting + libraries.flatMap { load($0.path, into: registry, standing: $0.standing) }
    }

    /// Loads one library. Returns what went wrong (empty when it loaded cleanly). A plugin whose individual
    /// registrations were refused still loads with the rest of its types. `standing` says how far it was
    /// trusted before this run, which decides who keeps a floor type another loaded plugin registered.
    public static func load(_ path: String, into registry: Registry, standing: PluginStanding = PluginStanding())
        -> [Diagnostic]
    {
        loadSteps(path, into: registry, standing: standing).map(\.diagnostic)
    }

    /// Loads one library like `load`, saying which step each refusal belongs to. `willStart` is called as
    /// each step begins (before any plugin code of that step runs; at `.registration` the plugin is already
    /// in `registry.plugins`), so a process watching from outside knows which step a crash or a hang
    /// happened in. Steps after a refusing step are not taken, except
    /// that typeNames and selectorSignatures are judged from what `init` registered.
    public static func loadSteps(
        _ path: String, into registry: Registry, standing: PluginStanding = PluginStanding(),
        willStart: (LoadStep) -> Void = { _ in }
    ) -> [Refusal] {
        func refuse(_ step: LoadStep, _ reason: String, plugin: String? = nil) -> [Refusal] {
            [Refusal(step: step, diagnostic: Diagnostic(.error, "\(path): \(reason)", file: path, plugin: plugin))]
        }
        willStart(.open)
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let detail = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            return refuse(.open, "not loadable as a shared object: \(detail)")
        }
        willStart(.entrySymbol)
        guard let symbol = dlsym(handle, FLOOR_PLUGIN_ENTRY_SYMBOL) else {
            return refuse(
                .entrySymbol,
                "no entry symbol '\(FLOOR_PLUGIN_ENTRY_SYMBOL)': not a floor plugin (a plugin exports `const floor_plugin_descriptor_t *floor_plugin_entry(void)`)"
            )
        }
        let entry = unsafeBitCast(symbol, to: floor_plugin_entry_t.self)
        guard let descriptor = entry() else {
            return refuse(.entrySymbol, "\(FLOOR_PLUGIN_ENTRY_SYMBOL)() returned NULL")
        }
        willStart(.abiVersion)
        let d = descriptor.pointee
        let host = "\(FLOOR_ABI_MAJOR).\(FLOOR_ABI_MINOR)"
        let plugin = "\(d.abi_major).\(d.abi_minor)"
        guard d.abi_major == UInt32(FLOOR_ABI_MAJOR) else {
            return refuse(
                .abiVersion,
                "plugin ABI \(plugin) is incompatible with host ABI \(host) (major versions differ); rebuild the plugin against floor_abi.h \(FLOOR_ABI_MAJOR).x"
            )
        }
        guard d.abi_minor <= UInt32(FLOOR_ABI_MINOR) else {
            return refuse(
                .abiVersion,
                "plugin ABI \(plugin) is newer than host ABI \(host); update floorhost or build the plugin against floor_abi.h \(host)"
            )
        }
        guard Int(d.struct_size) >= MemoryLayout<floor_plugin_descriptor_t>.size else {
            return refuse(
                .abiVersion,
                "descriptor struct_size \(d.struct_size) is smaller than \(MemoryLayout<floor_plugin_descriptor_t>.size)"
            )
        }
        willStart(.descriptor)
        func field(_ value: UnsafePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        let id = field(d.id)
        let name = field(d.name)
        let version = field(d.version)
        for (label, value) in [("id", id), ("name", name), ("version", version)] where value.isEmpty {
            return refuse(
                .descriptor, "descriptor has no \(label); every plugin names its id, name and version",
                plugin: id.isEmpty ? nil : id)
        }
        guard let initialize = d.`init` else {
            return refuse(.descriptor, "descriptor has no init function", plugin: id)
        }
        willStart(.uniqueID)
        if let other = registry.plugins.first(where: { $0.id == id }) {
            return refuse(
                .uniqueID, "plugin id '\(id)' is already loaded from \(other.path); skipping this copy", plugin: id)
        }

        let index = registry.add(
            PluginInfo(
                id: id, name: name, version: version, path: path,
                abiMajor: d.abi_major, abiMinor: d.abi_minor, standing: standing))
        willStart(.registration)
        let table = HostTable(registry: registry, plugin: index)
        let accepted = initialize(table.table)
        table.registering = false
        var problems = table.refusals.map {
            Refusal(
                step: $0.step, diagnostic: Diagnostic(.error, "\(path): \(id): \($0.message)", file: path, plugin: id))
        }
        if WorkingDirectory.restore() {
            problems.append(
                Refusal(
                    step: .registration,
                    diagnostic: Diagnostic(
                        .warning,
                        "\(path): \(id): init changed the working directory (chdir); floorhost changed it back to \(WorkingDirectory.launch). A plugin must leave the process's working directory alone",
                        file: path, plugin: id)))
        }
        if !accepted {
            registry.withdraw(plugin: index)
            // A plugin usually gives up because the host refused one of its registrations: name that cause,
            // and file the consequence under the cause's step, so conform fails the check that names the defect.
            let cause =
                table.refusals.isEmpty
                ? nil
                : "after the host refused \(table.refusals.count == 1 ? "the registration" : "the \(table.refusals.count) registrations") reported just before"
            problems.append(
                Refusal(
                    step: table.refusals.first?.step ?? .registration,
                    diagnostic: Diagnostic(
                        .error,
                        "\(path): \(id): init returned false\(cause.map { " " + $0 } ?? ""); none of its types are available",
                        file: path, plugin: id)))
        }
        return problems
    }
}
