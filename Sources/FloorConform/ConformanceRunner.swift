import FloorCore
import FloorRuntime
import FoundationEssentials

/// The parent side of `floorhost conform`: checks each plugin library in child processes, so that a
/// plugin that crashes or hangs costs a child, never this process.
///
/// Per library: a child runs every check it can; when it dies (a signal, an unexpected exit) or stops
/// answering for `checkTimeout` seconds (it is killed), the check that had started and not finished gets
/// the verdict — a crash fails that check, a hang fails `time-limit` and leaves that check unfinished
/// (skipped) — and a fresh child carries on with the checks not yet judged, so every check gets a verdict.
/// Checks whose requirements did not pass are skipped. `unique-id`, cross-plugin `type-names` and
/// `time-limit` are judged here once every library has been checked. `snapshots` is judged here too, from
/// the drawings the child sent (SnapshotStore), and `fuzz` runs after the checks, in children of its own
/// (ConformanceFuzzer).
public struct ConformanceRunner: Sendable {
    /// How the reason of a check the time limit stopped begins ("stopped after 30 s in heights (the time
    /// limit): ..."), which the summary repeats for a plugin that failed no check but did not finish.
    package static let stoppedAfter = "stopped after"

    /// How to start a child: the program, leading arguments and the child's options; the runner appends
    /// `LIBRARY --checks ID,ID,...` (or `LIBRARY --fuzz SEED,...`). The CLI re-runs itself with its
    /// parsed options (floorhost's ChildArguments.swift): ["/proc/self/exe", "conform-child", "--call-limit", "1.0"].
    public var childCommand: [String]
    /// Seconds a check may run without finishing before its child is killed.
    public var checkTimeout: Double
    /// Seconds a single plugin call may take, as the runner judges slow calls (the child enforces the
    /// `--call-limit` in `childCommand`; it is 1 when that gives none).
    public var callLimit: Double
    /// The checks reported, in ConformanceCheck.all order (`--include`, `--exclude`): all by default.
    public var checks: [ConformanceCheck] = ConformanceCheck.all
    /// Checks not run at all (`--exclude`); those that require one run as if it had passed. The checks
    /// `checks` require and that are not excluded run too, unreported.
    public var excluded: Set<String> = []
    /// `--snapshots DIR --record|--verify`: adds the `snapshots` check.
    public var snapshots: SnapshotStore?
    /// `--fuzz` or `--reproduce`: adds the `fuzz` check.
    public var fuzz: ConformanceFuzzer?
    /// The plugin scan cache whose libraries count as trusted first when two register one floor type
    /// (PluginStanding), as the host reads it ($FLOORKIT_PLUGIN_CACHE or its default); nil: none.
    public var scanCache: String? = PluginScanCache.defaultFile

    public init(childCommand: [String], checkTimeout: Double = 10, callLimit: Double = 1) {
        self.childCommand = childCommand
        self.checkTimeout = checkTimeout
        self.callLimit = callLimit
    }

    /// The checks reported: `checks`, then the requested ones of ConformanceCheck.onRequest.
    package var reported: [ConformanceCheck] {
        checks + (snapshots == nil ? [] : [.snapshots]) + (fuzz == nil ? [] : [.fuzz])
    }

    /// The checks children run: the child-run checks reported, and what they require, less the excluded.
    package var runByChildren: [ConformanceCheck] {
        ConformanceCheck.withRequirements(reported.filter { $0 != .fuzz })
            .filter { !excluded.contains($0.id) && $0 != .uniqueID && $0 != .timeLimit && $0 != .fuzz }
    }

    /// Checks every plugin library at `paths` (files, or folders searched like --plugins), in path order
    /// within each folder. Throws when a path does not exist.
    public func run(paths: [String]) throws(PluginDiscovery.Failure) -> ConformanceReport {
        var libraries: [String] = []
        var standings: [PluginStanding] = []
        let advice = "give conform the path of a plugin library (.so) or of a folder that holds them"
        let cache = scanCache.map { PluginScanCache(file: $0) }
        for path in paths {
            // The folder whose plugins.lock pins a library: the folder given, or the library's own.
            var isFolder = false
            let folder =
                FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder
                ? path : PathText.deletingLastComponent(of: path)
            let lock = try? PluginLock.read(folder: folder)
            for library in try PluginDiscovery.libraries(in: path, what: "plugin library or folder", advice: advice)
            where !libraries.contains(library) {
                libraries.append(library)
                standings.append(PluginStanding.of(library, folder: folder, lock: lock, cache: cache))
            }
        }
        var checked = libraries.map(check)
        for i in checked.indices { checked[i].standing = standings[i] }
        judgeAcrossPlugins(&checked)
        return ConformanceReport(plugins: checked.map(\.report))
    }

    /// What one library's children said, before the cross-plugin checks.
    package struct Checked {
        package var report: ConformanceReport.Plugin
        package var floorTypes: [String] = []
        package var rowTypes: [String] = []
        /// How far the library was trusted before this run: who keeps a floor type two register.
        package var standing = PluginStanding()
        /// One line per hang (the child was killed) and per call slower than the limit.
        package var hangs: [String] = []
        package var slowCalls: [String] = []
    }

    package func check(_ library: String) -> Checked {
        var checked = Checked(report: .init(file: library, results: []))
        var results: [String: ConformanceReport.Result] = [:]
        func judge(
            _ check: ConformanceCheck, _ verdict: ConformanceReport.Verdict, _ reason: String?,
            _ details: [String]? = nil
        ) {
            results[check.id] = .init(
                check: check.id, stage: check.stage, verdict: verdict, reason: reason, details: details)
        }
        /// What the child drew for `--snapshots`: (sample name, text), in sample order.
        var drawings: [(name: String, text: String)] = []
        let runByChildren = self.runByChildren
        while true {
            var toRun: [ConformanceCheck] = []
            for check in runByChildren where results[check.id] == nil {
                if let requirement = check.requires.first(where: { results[$0].map { $0.verdict != .pass } ?? false }) {
                    judge(check, .skip, "needs \(requirement), which did not pass")
                } else {
                    toRun.append(check)
                }
            }
            if toRun.isEmpty { break }

            var running: ConformanceCheck?
            var lastStep: String?
            /// The running check's last progress report, and when it arrived (ProcessInfo uptime).
            var progress: (calls: Int, seconds: Double, slowestCall: String, slowestSeconds: Double, at: Double)?
            let arguments = childCommand + [library, "--checks", toRun.map(\.id).joined(separator: ",")]
            let outcome: ChildProcess.Outcome
            do {
                outcome = try ChildProcess.run(arguments, timeout: checkTimeout) { line in
                    guard let event = ChildEvent(line: line) else { return false }
                    switch event {
                    case .start(let id):
                        running = ConformanceCheck.named(id)
                        lastStep = nil
                        progress = nil
                        return true
                    case .step(let detail):
                        lastStep = detail
                    case .result(let id, let verdict, let reason):
                        if let check = ConformanceCheck.named(id) { judge(check, verdict, reason) }
                        if running?.id == id { running = nil }
                    case .plugin(let id, let name, let version, let floorTypes, let rowTypes):
                        checked.report.id = id
                        checked.report.name = name
                        checked.report.version = version
                        checked.floorTypes = floorTypes
                        checked.rowTypes = rowTypes
                    case .progress(_, let calls, let seconds, let slowestCall, let slowestSeconds):
                        progress = (calls, seconds, slowestCall, slowestSeconds, ProcessInfo.processInfo.systemUptime)
                    case .slowCall(let id, let call, let seconds):
                        checked.slowCalls.append(
                            "\(call) took \(PrintfFormat.string("%.2f", seconds)) s (limit \(callLimit) s) during \(id)"
                        )
                    case .snapshot(let name, let text):
                        drawings.append((name, text))
                    case .fuzzCase, .fuzzMutant:
                        break
                    }
                    return false
                }
            } catch {
                for check in toRun where results[check.id] == nil { judge(check, .fail, error.message) }
                break
            }
            // The check a death belongs to: the one that started and did not finish, else (the child died
            // while loading the plugin again) the first one still waiting.
            let culprit = running ?? toRun.first { results[$0.id] == nil }
            let place = lastStep.map { " in \($0)" } ?? ""
            let lastWords = StderrTail.lastLines(of: outcome.stderr)
            let said = lastWords.isEmpty ? "" : "; its last words on stderr: \(StderrTail.quoted(lastWords))"
            switch outcome.ending {
            case .signaled(let signal):
                if let culprit {
                    judge(culprit, .fail, "crashed with \(ChildProcess.signalName(signal))\(place)\(said)")
                }
            case .timedOut(let seconds):
                guard let culprit else { break }
                let stopped =
                    "\(Self.stoppedAfter) \(PrintfFormat.string("%g", seconds)) s in \(culprit.id) (the time limit)"
                let silence = progress.map { ProcessInfo.processInfo.systemUptime - $0.at }
                if let progress, let silence, silence < max(callLimit, PluginUnderTest.progressInterval * 2) {
                    // Calls kept returning until the kill: the check as a whole outran its limit, no call hung.
                    judge(
                        culprit, .skip,
                        "\(stopped): did not finish within the check's limit of \(PrintfFormat.string("%g", seconds)) s, though no call hung: \(progress.calls) calls returned, \(PrintfFormat.string("%.1f", progress.seconds)) s of plugin time in all, the slowest (\(progress.slowestCall)) in \(PrintfFormat.string("%.3g", progress.slowestSeconds * 1000)) ms (the per-call limit is \(PrintfFormat.string("%g", callLimit)) s)\(place); the samples have too many rows to check in time: give fewer, or a longer --timeout"
                    )
                } else {
                    judge(culprit, .skip, "\(stopped): did not finish, a call hung (see time-limit)")
                    let before =
                        progress.map {
                            "; \($0.calls) calls had returned, the last \(PrintfFormat.string("%.1f", silence ?? 0)) s before the kill"
                        } ?? ""
                    checked.hangs.append(
                        "no answer for \(PrintfFormat.string("%g", seconds)) s during \(culprit.id)\(place)\(before); the child was killed"
                    )
                }
            case .exited(let status):
                if let culprit, status != 0 || running != nil {
                    judge(culprit, .fail, "the process exited with status \(status) during this check\(place)\(said)")
                }
            }
            // A child that ended cleanly without judging everything it was given would loop forever.
            if case .exited(0) = outcome.ending, running == nil {
                for check in toRun where results[check.id] == nil {
                    judge(check, .fail, "the child ended without a verdict\(said)")
                }
            }
        }
        // The child drew every sample; the files say whether that is the drawing recorded.
        if let snapshots, results[ConformanceCheck.snapshots.id]?.verdict == .pass {
            let (verdict, reason, details) = snapshots.judge(drawings, pluginID: checked.report.id ?? fileName(library))
            judge(.snapshots, verdict, reason, details)
        }
        if let fuzz {
            if let requirement = ConformanceCheck.fuzz.requires.first(where: {
                results[$0].map { $0.verdict != .pass } ?? false
            }) {
                judge(.fuzz, .skip, "needs \(requirement), which did not pass")
            } else {
                let (verdict, reason, details) = fuzz.run(
                    library: library, childCommand: childCommand, checkTimeout: checkTimeout)
                judge(.fuzz, verdict, reason, details)
            }
        }
        checked.report.results = reported.compactMap { results[$0.id] }
        return checked
    }

    /// Judges what needs every library's answers: unique ids, type names unique across plugins, and the
    /// time limit (from hangs and slow calls).
    package func judgeAcrossPlugins(_ checked: inout [Checked]) {
        for i in checked.indices {
            var results = checked[i].report.results
            func set(_ check: ConformanceCheck, _ verdict: ConformanceReport.Verdict, _ reason: String?) {
                let result = ConformanceReport.Result(
                    check: check.id, stage: check.stage, verdict: verdict, reason: reason)
                if let at = results.firstIndex(where: { $0.check == check.id }) {
                    results[at] = result
                } else {
                    results.append(result)
                }
            }
            func passed(_ check: ConformanceCheck) -> Bool { results.first { $0.check == check.id }?.verdict == .pass }
            let earlier = checked[..<i]

            let judges = (
                uniqueID: checks.contains(.uniqueID), typeNames: checks.contains(.typeNames),
                timeLimit: checks.contains(.timeLimit)
            )
            if !judges.uniqueID {
                // Not reported; a taken id still keeps the copy's type names out of the clash below.
            } else if !passed(.descriptor) {
                set(.uniqueID, .skip, "needs descriptor, which did not pass")
            } else if let id = checked[i].report.id, let other = earlier.first(where: { $0.report.id == id }) {
                set(
                    .uniqueID, .fail,
                    "plugin id '\(id)' is also the id of \(other.report.file); the host loads only the first")
            } else {
                set(.uniqueID, .pass, nil)
            }

            // A copy with a taken id is not loaded at all, so its type names cannot clash. Row types are each
            // plugin's own (ABI 1.5); a floor type two libraries register stays with the one trusted first, as
            // the host loads them (PluginStanding), and only the other fails, with the host's words.
            if judges.typeNames && passed(.typeNames) && !loadsNot(i, in: checked) {
                let me = checked[i]
                let owners = PluginStanding.ordered(checked.indices.filter { !loadsNot($0, in: checked) }) {
                    (checked[$0].standing, checked[$0].report.file)
                }
                let refusals = me.floorTypes.sorted().compactMap { name -> String? in
                    guard let owner = owners.first(where: { checked[$0].floorTypes.contains(name) }), owner != i
                    else { return nil }
                    let other = checked[owner]
                    return Registry.taken(
                        name, owner: (other.report.id ?? "?", other.report.file, other.standing),
                        newcomer: (me.report.id ?? "?", me.report.file, me.standing))
                }
                if !refusals.isEmpty { set(.typeNames, .fail, refusals.joined(separator: "; ")) }
            }

            let late = checked[i].hangs + checked[i].slowCalls
            if !judges.timeLimit {
                // Not reported.
            } else if !late.isEmpty {
                set(.timeLimit, .fail, late.joined(separator: "; "))
            } else if !passed(.registration) {
                set(.timeLimit, .skip, "needs registration, which did not pass")
            } else {
                set(.timeLimit, .pass, nil)
            }
            checked[i].report.results = reported.compactMap { check in results.first { $0.check == check.id } }
        }
    }
}

/// True when library `i` of `checked` is not loaded at all, as the host sees it: an earlier library has its id.
private func loadsNot(_ i: Int, in checked: [ConformanceRunner.Checked]) -> Bool {
    checked[..<i].contains { $0.report.id == checked[i].report.id }
}

private func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
