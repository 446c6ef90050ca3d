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
/// Threading: one thread at a time.
public final class Registry: @unchecked Sendable {
    package struct RowType {
        package let name: String
        /// `Registry.nobody` once its name was withdrawn (claimed by two libraries): expand may no longer list it.
        package var plugin: Int
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
    private var rowTypeIDs: [String: Int32] = [:]
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
    /// Type names two libraries claimed, which therefore belong to neither: the message saying so, by name.
    package private(set) var clashedFloorTypes: [String: String] = [:]
    package private(set) var clashedRowTypes: [String: String] = [:]
    /// The owner of a row type whose name was withdrawn.
    package static let nobody = -1

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
    public var rowTypeNames: [String] { rowTypeIDs.keys.sorted() }

    package func floorTypeID(named name: String) -> Int32? { floorTypeIDs[name] }
    package func rowTypeID(named name: String) -> Int32? { rowTypeIDs[name] }

    package func add(_ plugin: PluginInfo) -> Int {
        plugins.append(plugin)
        return plugins.count - 1
    }

    /// Adds a row type, or says why not. A name claimed by two libraries belongs to neither, whichever
    /// loaded first: the earlier claim is withdrawn too (rows of that type are left out), so a newcomer can
    /// neither take over a shipped type nor have the outcome depend on how file names sort. A plugin that
    /// registers its own name twice keeps the first.
    package func add(_ rowType: RowType) -> Result<Int32, RegistrationError> {
        if let message = clashedRowTypes[rowType.name] {
            return .failure(
                .init(
                    .typeNames,
                    message + "; \(plugins[rowType.plugin].id) (\(plugins[rowType.plugin].path)) claims it too"))
        }
        if let existing = rowTypeIDs[rowType.name] {
            let owner = rowTypes[Int(existing)].plugin
            guard owner != rowType.plugin else {
                return .failure(
                    .init(
                        .typeNames, "row type '\(rowType.name)' is registered twice by this plugin; keeping the first"))
            }
            let message = clash(
                "row type", rowType.name, plugins[owner], plugins[rowType.plugin], "rows of this type are left out")
            rowTypeIDs[rowType.name] = nil
            rowTypes[Int(existing)].plugin = Self.nobody
            clashedRowTypes[rowType.name] = message
            return .failure(.init(.typeNames, message))
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
        rowTypeIDs[rowType.name] = id
        return .success(id)
    }

    /// Adds a floor type, or says why not; a clash withdraws both claims, as for row types. Floors of a
    /// withdrawn type decode as placeholders that say so (`clashedFloorTypes`).
    package func add(_ floorType: FloorType) -> Result<Int32, RegistrationError> {
        if let message = clashedFloorTypes[floorType.name] {
            return .failure(
                .init(
                    .typeNames,
                    message + "; \(plugins[floorType.plugin].id) (\(plugins[floorType.plugin].path)) claims it too"))
        }
        if let existing = floorTypeIDs[floorType.name] {
            let owner = floorTypes[Int(existing)].plugin
            guard owner != floorType.plugin else {
                return .failure(
                    .init(
                        .typeNames,
                        "floor type '\(floorType.name)' is registered twice by this plugin; keeping the first"))
            }
            let message = clash(
                "floor type", floorType.name, plugins[owner], plugins[floorType.plugin],
                "floors of this type are not shown")
            floorTypeIDs[floorType.name] = nil
            clashedFloorTypes[floorType.name] = message
            return .failure(.init(.typeNames, message))
        }
        floorTypes.append(floorType)
        let id = Int32(floorTypes.count - 1)
        floorTypeIDs[floorType.name] = id
        return .success(id)
    }

    private func clash(_ kind: String, _ name: String, _ first: PluginInfo, _ second: PluginInfo, _ outcome: String)
        -> String
    {
        "\(kind) '\(name)' is claimed by both \(first.id) (\(first.path)) and \(second.id) (\(second.path)); a name two libraries claim belongs to neither, so \(outcome) until one of them is removed or renames it"
    }

    /// Withdraws every name a plugin registered (its `init` failed). Ids stay allocated so nothing shifts.
    package func withdraw(plugin: Int) {
        rowTypeIDs = rowTypeIDs.filter { rowTypes[Int($0.value)].plugin != plugin }
        floorTypeIDs = floorTypeIDs.filter { floorTypes[Int($0.value)].plugin != plugin }
    }
}
