import CFloorABI
import FloorCore
import HostContract
import Synchronization

/// A plugin the host loaded.
public struct PluginInfo: Sendable, Equatable {
    public let id: String
    public let name: String
    public let version: String
    /// The library's path as discovered (relative to where the host was pointed), or "(built in)".
    public let path: String
    public let abiMajor: UInt32
    public let abiMinor: UInt32
    /// How far it was trusted before this run: which plugin keeps a floor type two register.
    public var standing = PluginStanding()
}

/// What the adapter needs to call a row type's hot selectors, as plain values.
package struct RowDispatch {
    package let context: UnsafeMutableRawPointer?
    package let height: HeightFunction
    package let cell: CellFunction
    /// Nil when the row type registered no tappable-items selector.
    package let tappable: TappableFunction?
}

/// What the ffi path (`--dispatch ffi`) needs to perform a row type's hot selectors generically: the same
/// selectors' invokers, prepared when the row type is registered. A loop that reads the table through a
/// local (as `Adapter.measure` does) calls them without a retain or release per row; a copy of a whole
/// entry retains each of its invokers.
package struct RowInvokers {
    package let context: UnsafeMutableRawPointer?
    package let height: SelectorInvoker
    package let cell: SelectorInvoker
    /// Nil when the row type registered no tappable-items selector.
    package let tappable: SelectorInvoker?
}

/// Every floor type and row type the loaded plugins registered. Ids are dense indexes, assigned in
/// registration order; names are looked up once per floor when a page is decoded, never per row.
/// A row type belongs to its plugin (its id is dense per plugin and name, and a floor's rows resolve only
/// within the plugin that expanded it); a floor type name belongs to one plugin of all, the one that
/// registered it first (the loader loads the most trusted first: PluginStanding).
/// Threading: one thread at a time.
public final class Registry: @unchecked Sendable {
    package struct RowType {
        /// Unique within its plugin only (ABI 1.5): two plugins may each have a row type of one name.
        package let name: String
        package let plugin: Int
        package let context: UnsafeMutableRawPointer?
        package let height: Selector
        package let cell: Selector
        package let heightFunction: HeightFunction
        package let cellFunction: CellFunction
        /// Both or neither (ABI 1.1): how many items of a row a tap can hit, and the action for one.
        package let tappable: Selector?
        package let action: Selector?
        /// ABI 1.5, optional: how many horizontal pages a row shows (docs/ABI.md, "Paged rows").
        package var pages: Selector? = nil
    }

    package struct FloorType {
        package let name: String
        package let plugin: Int
        package let context: UnsafeMutableRawPointer?
        package let sampleJSON: String?
        package let decode: Selector
        package let expand: Selector
        package let destroy: Selector
        /// ABI 1.1, optional.
        package let validate: Selector?
        package let extend: Selector?
        /// ABI 1.3, optional: what the plugin declared (`schema_json`), parsed; nil when it declared none or
        /// its schema is unusable (then `schemaProblem` says why).
        package var schema: DeclaredSchema? = nil
        package var schemaProblem: String? = nil
        /// ABI 1.5: the collection layouts it supports and its defaults (list only for an older plugin).
        package var layouts = DeclaredLayouts()
    }

    public private(set) var plugins: [PluginInfo] = []
    package private(set) var rowTypes: [RowType] = []
    /// The hot path's view of `rowTypes`: trivial values only (no references to retain), one per row
    /// type id, so dispatching a row is an array read and a direct call.
    package private(set) var dispatch: ContiguousArray<RowDispatch> = []
    /// The ffi path's view of `rowTypes`, one per row type id.
    package private(set) var invokers: ContiguousArray<RowInvokers> = []
    package private(set) var floorTypes: [FloorType] = []
    /// Row type ids by plugin and name.
    private var rowTypeIDs: [RowTypeKey: Int32] = [:]
    private struct RowTypeKey: Hashable {
        let plugin: Int
        let name: String
    }
    /// Where every call into these plugins is noted, for a supervising process (PageSupervisor) to watch.
    package var crashRecord = CrashRecord()
    /// Floors an earlier attempt at this command could not get past (a plugin crashed or hung on them):
    /// decoded as placeholders, never handed to a plugin again.
    package var skippedFloors: [FloorOrigin: SkippedFloor] = [:]
    /// How pages are numbered in FloorOrigin (and so in the crash record and in skipped floors): by
    /// default in decode order; a long-running process that replays its pages in a fresh process numbers
    /// them by file instead, so that a skipped floor names the same floor in both (FloorHost.numberPages).
    package var pageOrdinal: ((String) -> Int32)?
    private var floorTypeIDs: [String: Int32] = [:]
    /// Pages decoded in this process, by ordinal: their file, and the page while it lives (weakly). What
    /// names the floor of a plugin call that ends the process (`callInProgress`). Pruned as pages are added.
    private var decodedPages: [Int32: DecodedPage] = [:]
    private var pruneDecodedPagesAt = 64
    private struct DecodedPage {
        let file: String
        weak var page: Page?
    }
    /// The floor whose decoder or validator runs now, before it is a section of its page: its id and type.
    package var decodingFloor: (origin: FloorOrigin, id: String, type: String)?
    /// How many plugins registered a row type of each name: a name two share is shown with its plugin's id.
    private var rowTypeOwners: [String: Int] = [:]

    /// Messages plugins sent through the host table's `log`, in order. Behind a lock: a plugin may log from
    /// a thread of its own (docs/ABI.md, "Logging"), while the host reads them on its thread.
    public package(set) var pluginMessages: [Diagnostic] {
        get { messages.withLock { $0 } }
        set { messages.withLock { $0 = newValue } }
    }
    private let messages = Mutex<[Diagnostic]>([])

    /// Adds a plugin's message, from any thread.
    package func addPluginMessage(_ message: Diagnostic) { messages.withLock { $0.append(message) } }

    public init() {
        BuiltinRows.register(in: self)
    }

    public var floorTypeNames: [String] { floorTypeIDs.keys.sorted() }
    /// The names of every available row type, each once (two plugins may share one).
    public var rowTypeNames: [String] { Set(rowTypeIDs.keys.map(\.name)).sorted() }

    package func floorTypeID(named name: String) -> Int32? { floorTypeIDs[name] }
    /// The floor object's schema of every floor type that declared one, by name: what a page's scan checks
    /// floors against (on its own thread, so a value rather than a lookup into the registry).
    package var floorSchemas: [String: FloorSchema] {
        floorTypeIDs.compactMapValues { floorTypes[Int($0)].schema?.floorObject }
    }
    /// The row type `name` of plugin `plugin` (an index into `plugins`).
    package func rowTypeID(named name: String, plugin: Int) -> Int32? {
        rowTypeIDs[RowTypeKey(plugin: plugin, name: name)]
    }
    /// A row type the host itself draws (BuiltinRows).
    package func builtinRowType(_ name: String) -> Int32 { rowTypeIDs[RowTypeKey(plugin: 0, name: name)]! }
    /// The names of plugin `plugin`'s available row types, sorted.
    package func rowTypeNames(of plugin: Int) -> [String] {
        rowTypeIDs.keys.filter { $0.plugin == plugin }.map(\.name).sorted()
    }
    /// The id of the plugin that registered row type `id`, when another loaded plugin has a row type of the
    /// same name (ABI 1.5): outputs keep the bare name and add this. Nil when the name is the only one.
    package func sharedRowTypePlugin(_ id: Int32) -> String? {
        let type = rowTypes[Int(id)]
        guard rowTypeOwners[type.name, default: 0] > 1 else { return nil }
        return plugins[type.plugin].id
    }

    package func add(_ plugin: PluginInfo) -> Int {
        plugins.append(plugin)
        return plugins.count - 1
    }

    /// Adds a row type, or says why not: a plugin that registers its own name twice keeps the first. Another
    /// plugin's row type of the same name is no clash: each plugin's floors list only its own row types.
    package func add(_ rowType: RowType) -> Result<Int32, RegistrationError> {
        let key = RowTypeKey(plugin: rowType.plugin, name: rowType.name)
        guard rowTypeIDs[key] == nil else {
            return .failure(
                .init(.typeNames, "row type '\(rowType.name)' is registered twice by this plugin; keeping the first"))
        }
        rowTypes.append(rowType)
        dispatch.append(
            RowDispatch(
                context: rowType.context, height: rowType.heightFunction, cell: rowType.cellFunction,
                tappable: rowType.tappable.map { unsafeBitCast($0.function, to: TappableFunction.self) }))
        invokers.append(
            RowInvokers(
                context: rowType.context, height: rowType.height.invoker, cell: rowType.cell.invoker,
                tappable: rowType.tappable?.invoker))
        let id = Int32(rowTypes.count - 1)
        rowTypeIDs[key] = id
        rowTypeOwners[rowType.name, default: 0] += 1
        return .success(id)
    }

    /// Adds a floor type, or says why not. A floor type belongs to the plugin that registered it first, the
    /// one trusted first (PluginStanding: plugins load in that order); a later plugin's claim is refused by
    /// name, and floors of the type stay its owner's.
    package func add(_ floorType: FloorType) -> Result<Int32, RegistrationError> {
        if let existing = floorTypeIDs[floorType.name] {
            let owner = floorTypes[Int(existing)].plugin
            guard owner != floorType.plugin else {
                return .failure(
                    .init(
                        .typeNames,
                        "floor type '\(floorType.name)' is registered twice by this plugin; keeping the first"))
            }
            return .failure(
                .init(
                    .typeNames, Self.taken(floorType.name, owner: claimant(owner), newcomer: claimant(floorType.plugin))
                ))
        }
        floorTypes.append(floorType)
        let id = Int32(floorTypes.count - 1)
        floorTypeIDs[floorType.name] = id
        return .success(id)
    }

    /// A plugin as a clash over a floor type names it.
    package typealias Claimant = (id: String, path: String, standing: PluginStanding)

    /// Why `newcomer`'s claim of floor type `name`, which `owner` registered, is refused: the same words in
    /// render, check, serve and conform.
    package static func taken(_ name: String, owner: Claimant, newcomer: Claimant) -> String {
        "floor type '\(name)' is already registered by \(owner.id) (\(owner.path)), which keeps it because \(owner.standing.reason(against: newcomer.standing)); the claim of \(newcomer.id) (\(newcomer.path)) is refused and floors of type '\(name)' are drawn by \(owner.id); give the floor type of \(newcomer.id) another name to have both"
    }

    private func claimant(_ plugin: Int) -> Claimant {
        (plugins[plugin].id, plugins[plugin].path, plugins[plugin].standing)
    }

    /// Notes a page about to be decoded as page `ordinal` of the run (see `decodedPages`).
    package func noteDecoding(_ page: Page, ordinal: Int32) {
        if decodedPages.count >= pruneDecodedPagesAt {
            decodedPages = decodedPages.filter { $0.value.page != nil }
            pruneDecodedPagesAt = max(64, decodedPages.count * 2)
        }
        decodedPages[ordinal] = DecodedPage(file: page.file, page: page)
    }

    /// The plugin call this process is in, unsupervised (its crash record is its own: no parent reads it),
    /// as a phrase naming the plugin, the selector and the floor; nil outside plugin calls and under a
    /// supervisor, which names the call itself (PluginExitGuard).
    package func callInProgress() -> String? {
        guard crashRecord.descriptor < 0, let (call, origin) = crashRecord.lastCall else { return nil }
        let decoded = decodedPages[origin.page]
        var floor = "floors[\(origin.floor)]"
        var type: String?
        if let decoding = decodingFloor, decoding.origin == origin {
            floor = "floor '\(decoding.id)'"
            type = decoding.type
        } else if let section = decoded?.page?.sections.first(where: { $0.origin == origin }) {
            floor = "floor '\(section.floorID)'"
            type = section.floorType
        }
        let plugin = type.flatMap { floorTypeID(named: $0) }.map { plugins[floorTypes[Int($0)].plugin].id }
        return
            "plugin \(plugin ?? "?")'s \(call.selectorName) on \(floor)\(type.map { " (\($0))" } ?? "")\(decoded.map { " of \($0.file)" } ?? "")"
    }

    /// Withdraws every name a plugin registered (its `init` failed). Ids stay allocated so nothing shifts.
    package func withdraw(plugin: Int) {
        for key in rowTypeIDs.keys where key.plugin == plugin {
            rowTypeIDs[key] = nil
            rowTypeOwners[key.name, default: 1] -= 1
        }
        floorTypeIDs = floorTypeIDs.filter { floorTypes[Int($0.value)].plugin != plugin }
    }
}
