import CFloorABI
import FloorCore
import FloorRuntime
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The child side of `floorhost conform`: loads one plugin library in this process and runs the checks it
/// was given, in ConformanceCheck.all order, writing ChildEvent lines as it goes. Whatever the plugin does
/// (crash, hang, print), the parent learns which check was running; a plugin's own stdout is redirected
/// to stderr so it cannot corrupt the protocol.
///
/// Checks whose requirements failed in this run are skipped here; the parent does not ask for checks
/// whose requirements failed in an earlier child.
public enum ConformanceChild {
    /// Runs `checkIDs` on `library`. Returns the process exit status (0 unless the arguments were wrong).
    public static func run(library: String, checkIDs: [String], callLimit: Double) -> Int32 {
        let stream = ParentChannel()
        let requested = (ConformanceCheck.runInChild + [.snapshots]).filter { checkIDs.contains($0.id) }
        guard requested.count == Set(checkIDs).count else {
            let unknown = checkIDs.filter { id in !requested.contains { $0.id == id } }
            try? HostOutput.standardError.write(
                "conform-child: unknown or parent-only checks: \(unknown.joined(separator: ", "))\n")
            return 64
        }
        var verdicts: [String: ConformanceReport.Verdict] = [:]
        func finish(_ check: ConformanceCheck, _ verdict: ConformanceReport.Verdict, _ reason: String? = nil) {
            verdicts[check.id] = verdict
            stream.send(.result(check: check.id, verdict: verdict, reason: reason))
        }
        func unmet(_ check: ConformanceCheck) -> String? {
            check.requires.first { verdicts[$0] != nil && verdicts[$0] != .pass }
        }

        // Loading: the loader announces each step before running plugin code for it.
        let registry = Registry()
        let loading = requested.filter { $0.stage == .loading }
        var running: ConformanceCheck?
        let refusals = PluginLoader.loadSteps(library, into: registry) { step in
            let check = ConformanceCheck.judging(step)
            guard check != .uniqueID else { return }
            if let previous = running, loading.contains(previous) { finish(previous, .pass) }
            running = check
            if loading.contains(check) { stream.send(.start(check: check.id)) }
            switch step {
            case .open: stream.send(.step(detail: "dlopen"))
            case .entrySymbol: stream.send(.step(detail: "\(FLOOR_PLUGIN_ENTRY_SYMBOL)()"))
            case .registration:
                // Say who the plugin is before its init runs: init may be what crashes.
                if let info = registry.plugins.last {
                    stream.send(
                        .plugin(id: info.id, name: info.name, version: info.version, floorTypes: [], rowTypes: []))
                }
                stream.send(.step(detail: "init (registering its types)"))
            default: break
            }
        }
        let byCheck = Dictionary(grouping: refusals) { ConformanceCheck.judging($0.step) }
        func reasons(_ check: ConformanceCheck) -> String? {
            byCheck[check].map {
                $0.map { strip($0.diagnostic.message, library, id: $0.diagnostic.plugin) }.joined(separator: "; ")
            }
        }
        if let last = running, loading.contains(last) {
            finish(last, reasons(last) == nil ? .pass : .fail, reasons(last))
        }

        let pluginIndex = registry.plugins.firstIndex { $0.path == library }
        if let index = pluginIndex {
            let info = registry.plugins[index]
            stream.send(
                .plugin(
                    id: info.id, name: info.name, version: info.version,
                    floorTypes: registry.floorTypeNames.filter {
                        registry.floorTypes[Int(registry.floorTypeID(named: $0)!)].plugin == index
                    },
                    rowTypes: registry.rowTypeNames(of: index)))
        }
        // A restarted child did not ask for the loading checks, but needs the plugin loaded as before.
        let loadedAgain: String? =
            loading.isEmpty
            ? refusals.first { $0.step != .typeNames && $0.step != .selectorSignatures }
                .map { "the plugin did not load again: " + strip($0.diagnostic.message, library) } : nil

        var samples: Result<SampleSet, ConformanceFailure>?
        var lateRegistrations: [String] = []
        for check in requested where verdicts[check.id] == nil {
            if let requirement = unmet(check) {
                finish(check, .skip, "needs \(requirement), which did not pass")
                continue
            }
            stream.send(.start(check: check.id))
            if check.stage == .loading {
                // Judged from what init registered (the loader ran them while registering).
                finish(check, reasons(check) == nil ? .pass : .fail, reasons(check))
                continue
            }
            if let loadedAgain {
                finish(check, .fail, loadedAgain)
                continue
            }
            guard let index = pluginIndex else {
                finish(check, .fail, "the plugin did not load")
                continue
            }
            let plugin = PluginUnderTest(
                library: library, registry: registry, plugin: index, callLimit: callLimit,
                emit: stream.send(_:))
            plugin.check = check.id
            if samples == nil { samples = SampleSet.collect(library: library, plugin: index, registry: registry) }
            let messagesBefore = registry.pluginMessages.count
            do {
                try BehaviourChecks.run(check, on: plugin, samples: samples!.get())
                finish(check, .pass)
            } catch {
                finish(check, .fail, error.message)
            }
            // A registration made from a selector (after init returned) was refused: the cause is the
            // plugin's registration, whichever check's calls reached it. (Only refuseLate in HostTable
            // writes such an error among the plugin's messages.)
            for message in registry.pluginMessages.dropFirst(messagesBefore).map(\.message)
            where message.contains("called after init returned")
                && !lateRegistrations.contains(where: {
                    $0.hasPrefix(strip(message, library, id: registry.plugins[index].id))
                })
            {
                lateRegistrations.append(
                    strip(message, library, id: registry.plugins[index].id)
                        + " (reached by the \(check.id) check's calls)")
            }
        }
        if !lateRegistrations.isEmpty {
            // Sent after the loading verdict, this one replaces it in the parent's report.
            stream.send(
                .result(
                    check: ConformanceCheck.registration.id, verdict: .fail,
                    reason: lateRegistrations.joined(separator: "; ")))
        }
        return 0
    }

    /// `conform --fuzz`'s child: loads `library` and runs the fuzz case of each seed (FuzzCase), then
    /// sends the `fuzz` check's verdict: pass when every case returned, fail when the plugin did not load
    /// or has no usable samples. A crash or hang is judged by the parent from the last case and step.
    public static func runFuzz(library: String, seeds: [UInt64], callLimit: Double) -> Int32 {
        let stream = ParentChannel()
        let check = ConformanceCheck.fuzz
        stream.send(.start(check: check.id))
        let registry = Registry()
        let refusals = PluginLoader.loadSteps(library, into: registry) { _ in }
        guard let index = registry.plugins.firstIndex(where: { $0.path == library }),
            !refusals.contains(where: { $0.step != .typeNames && $0.step != .selectorSignatures })
        else {
            let why = refusals.first.map { strip($0.diagnostic.message, library) } ?? "it registered nothing"
            stream.send(.result(check: check.id, verdict: .fail, reason: "the plugin did not load: \(why)"))
            return 0
        }
        let plugin = PluginUnderTest(
            library: library, registry: registry, plugin: index, callLimit: callLimit, emit: stream.send(_:))
        plugin.check = check.id
        switch SampleSet.collect(library: library, plugin: index, registry: registry) {
        case .failure(let failure):
            stream.send(.result(check: check.id, verdict: .fail, reason: failure.message))
        case .success(let samples):
            // One case is a reproduction: show its mutant.
            for seed in seeds {
                FuzzCase.run(seed: seed, plugin: plugin, samples: samples, showMutant: seeds.count == 1)
            }
            stream.send(.result(check: check.id, verdict: .pass, reason: nil))
        }
        return 0
    }

    /// "path: id: message" -> "message": the report already names the file and the plugin.
    private static func strip(_ message: String, _ library: String, id: String? = nil) -> String {
        var text = Substring(message)
        if text.hasPrefix(library + ": ") { text = text.dropFirst(library.count + 2) }
        if let id, text.hasPrefix(id + ": ") { text = text.dropFirst(id.count + 2) }
        return String(text)
    }
}
