import FloorRuntime

/// One named check of `floorhost conform`. The list, its order and its dependencies are the contract:
/// checks run in `all` order; a check whose requirements did not all pass is skipped (with the reason),
/// so one defect is flagged by exactly one check instead of by everything downstream of it.
public struct ConformanceCheck: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Stage: String, Sendable, Codable { case loading, behaviour }

    /// The stable, kebab-case name shown in reports and used on the child protocol: "heights".
    public let id: String
    public let stage: Stage
    /// What passing means, for people.
    public let summary: String
    /// Checks that must pass first (by id).
    public let requires: [String]

    public var description: String { id }

    public static let loadable = ConformanceCheck("loadable", .loading, "dlopen accepts the file", [])
    public static let entrySymbol = ConformanceCheck(
        "entry-symbol", .loading, "exports floor_plugin_entry, which returns a descriptor", ["loadable"])
    public static let abiVersion = ConformanceCheck(
        "abi-version", .loading, "built against a compatible floor_abi.h", ["entry-symbol"])
    public static let descriptor = ConformanceCheck(
        "descriptor", .loading, "descriptor id, name, version non-empty; init present", ["abi-version"])
    public static let uniqueID = ConformanceCheck(
        "unique-id", .loading, "plugin id unique among the plugins checked", ["descriptor"])
    public static let registration = ConformanceCheck(
        "registration", .loading,
        "init registers its types and returns true (false after a refused registration is judged by that registration's check)",
        ["descriptor"])
    public static let typeNames = ConformanceCheck(
        "type-names", .loading, "type names non-empty and unique", ["registration"])
    public static let selectorSignatures = ConformanceCheck(
        "selector-signatures", .loading, "every selector has the signature its slot expects", ["registration"])
    public static let samples = ConformanceCheck(
        "samples", .behaviour, "every floor type ships sample JSON that decodes and expands",
        ["type-names", "selector-signatures"])
    public static let refusesBadJSON = ConformanceCheck(
        "refuses-bad-json", .behaviour, "empty, garbage and wrongly-typed JSON is refused with a reason", ["samples"])
    public static let heights = ConformanceCheck(
        "heights", .behaviour, "heights 0 to 10000 points (FLOOR_MAX_ROW_HEIGHT) for widths 1 to 2048", ["samples"])
    public static let deterministic = ConformanceCheck(
        "deterministic", .behaviour, "same input, same height and same drawing", ["heights"])
    public static let drawingBounds = ConformanceCheck(
        "drawing-bounds", .behaviour, "cells draw inside (0, 0, width, height)", ["heights"])
    public static let balancedModels = ConformanceCheck(
        "balanced-models", .behaviour, "destroy frees what decode allocated (no model leaked)", ["samples"])
    public static let schema = ConformanceCheck(
        "schema", .behaviour,
        "each floor type's declared JSON Schema (ABI 1.3) is usable and every sample validates against it", ["samples"])
    /// Judged by the parent: a call that hung (the child was killed) or ran past the per-call limit.
    public static let timeLimit = ConformanceCheck(
        "time-limit", .behaviour, "every plugin call returns within the time limit", ["registration"])
    /// The calls beyond decoding and drawing: the validator, taps, and next pages.
    public static let validate = ConformanceCheck(
        "validate", .behaviour, "every sample passes its floor type's own validator", ["samples"])
    public static let actions = ConformanceCheck(
        "actions", .behaviour,
        "every tappable item of every sample row is tapped: no action, or a valid url, eventId and params", ["samples"])
    public static let extend = ConformanceCheck(
        "extend", .behaviour,
        "a sample continued by a next-page copy of itself: duplicates reported, unchanged-row counts true", ["samples"])

    public static let collections = ConformanceCheck(
        "collections", .behaviour,
        "a floor type declaring grid or waterfall (ABI 1.5) lists item rows; at each layout and column count its items measure 0 to 10000 points at the column width, draw inside their frames and are placed the same way twice",
        ["heights"])

    public static let all: [ConformanceCheck] = [
        loadable, entrySymbol, abiVersion, descriptor, uniqueID, registration, typeNames, selectorSignatures,
        samples, refusesBadJSON, heights, deterministic, drawingBounds, balancedModels, validate, actions, extend,
        schema, collections, timeLimit,
    ]

    /// The checks a child process runs (the rest are judged across plugins or from how children ended).
    public static let runInChild: [ConformanceCheck] = all.filter { $0 != uniqueID && $0 != timeLimit }

    /// Checks that run only when asked for, after `all`: `--snapshots DIR --record|--verify`, `--fuzz`.
    public static let snapshots = ConformanceCheck(
        "snapshots", .behaviour, "each sample's drawing at widths 320, 375 and 414 is the one recorded", ["samples"])
    public static let fuzz = ConformanceCheck(
        "fuzz", .behaviour, "mutated sample floors at random widths: no crash, no hang", ["samples"])
    public static let onRequest: [ConformanceCheck] = [snapshots, fuzz]

    public static func named(_ id: String) -> ConformanceCheck? { (all + onRequest).first { $0.id == id } }

    /// The checks `--include` and `--exclude` leave (ids, in `all` order), or why the ids are unusable.
    /// Included checks bring the checks they require along (run, not reported); excluded ones are not run
    /// and the checks that require them run as if they had passed.
    public static func selection(include: [String], exclude: [String]) -> Result<[ConformanceCheck], SelectionError> {
        for id in include + exclude where named(id) == nil || onRequest.contains(named(id)!) {
            let known = all.map(\.id).joined(separator: ", ")
            return .failure(
                SelectionError(
                    message:
                        "unknown check '\(id)'; the checks are \(known) (snapshots and fuzz have their own options)"))
        }
        let included = include.isEmpty ? all : all.filter { include.contains($0.id) }
        return .success(included.filter { !exclude.contains($0.id) })
    }

    public struct SelectionError: Error, Sendable { public let message: String }

    /// `checks` and every check they require, directly or not, in `all` order.
    package static func withRequirements(_ checks: [ConformanceCheck]) -> [ConformanceCheck] {
        var needed = Set(checks.map(\.id))
        var queue = checks
        while let check = queue.popLast() {
            for id in check.requires where needed.insert(id).inserted { queue.append(named(id)!) }
        }
        return (all + onRequest).filter { needed.contains($0.id) }
    }

    /// The check that judges a loading step's refusals.
    public static func judging(_ step: LoadStep) -> ConformanceCheck {
        switch step {
        case .open: loadable
        case .entrySymbol: entrySymbol
        case .abiVersion: abiVersion
        case .descriptor: descriptor
        case .uniqueID: uniqueID
        case .registration: registration
        case .typeNames: typeNames
        case .selectorSignatures: selectorSignatures
        }
    }

    private init(_ id: String, _ stage: Stage, _ summary: String, _ requires: [String]) {
        self.id = id
        self.stage = stage
        self.summary = summary
        self.requires = requires
    }
}
