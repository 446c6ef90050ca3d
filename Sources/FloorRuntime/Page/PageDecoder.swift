import CFloorABI
import FloorCore
import FoundationEssentials
import HostContract

/// Turns a page file into a Page: scans the JSON for floors (no DOM) and, as the scan finds them, gives each
/// floor's own bytes to the decoder its type's plugin registered. Unusable input throws PageError; a floor
/// that cannot be decoded becomes a placeholder section plus a diagnostic, and the rest of the page still
/// renders.
public enum PageDecoder {
    /// Decodes the page at `file`, read through the page root of its own folder.
    public static func decode(file: String, registry: Registry) throws(PageError) -> Page {
        try decode(file: file, root: PageRoot(around: file), registry: registry)
    }

    /// Decodes the page at `file`, read through `root` (refused unless it is a regular file inside it, of
    /// at most root.maxPageBytes): the message then starts with the file name and carries no position.
    /// With `reusing` (a reload), a floor unchanged since the page on screen keeps its model and rows
    /// (see ReusableFloors) instead of being decoded again. An unknown field `allowed` names is not said.
    public static func decode(
        file: String, root: PageRoot, registry: Registry, reusing: ReusableFloors? = nil,
        allowed: AllowedFields = AllowedFields()
    )
        throws(PageError) -> Page
    {
        let bytes: [UInt8]
        do {
            bytes = try root.read(file)
        } catch {
            throw PageError(file: file, line: nil, column: nil, reason: error.description)
        }
        return try decode(bytes: bytes, file: file, registry: registry, reusing: reusing, allowed: allowed)
    }

    /// With `handingBack`, the caller will not read `bytes` again and no one else holds them: each floor's
    /// bytes are handed back to the kernel once the floor is decoded (`PageBytes.handBack`), so that the page
    /// and the models decoded from it are not all in memory at once (on the 8 MB page, the decode's peak went
    /// from 46.8 to 39.5 MiB; BENCHMARKS.md, issue 23). What is left of `bytes` then reads as zeros.
    public static func decode(
        bytes: [UInt8], file: String, registry: Registry, reusing: ReusableFloors? = nil,
        allowed: AllowedFields = AllowedFields(), handingBack: Bool = false
    )
        throws(PageError) -> Page
    {
        let page = Page(file: file, registry: registry)
        let record = registry.crashRecord
        let ordinal = registry.pageOrdinal?(file) ?? record.nextPageOrdinal()
        registry.noteDecoding(page, ordinal: ordinal)
        defer { registry.decodingFloor = nil }
        var said = PageDiagnostics(file: file)
        var firstPathOfID: [String: String] = [:]
        // One walk per floor, on a thread of its own, ahead of the plugins' decoding: the scan signs each
        // floor and checks it against its type's schema as it goes (ScanAhead).
        let schemas = registry.floorSchemas
        let unusable: PageSyntaxError? = bytes.withUnsafeBytes { raw in
            defer { for diagnostic in said.diagnostics(in: raw) { page.report(diagnostic) } }
            let scan = ScanAhead(raw, schemas: schemas)
            defer { scan.finish() }
            var handedBack = 0
            var floors = 0
            while true {
                let floor: FloorSpec
                switch scan.next() {
                case .found(.problem(let problem)):
                    if !(problem.isUnknownField && allowed.allows(path: problem.path)) {
                        said.add(pageProblem: problem)
                    }
                    continue
                case .found(.floorsAgain):
                    // The page's floors are the last `floors` array's: those decoded so far go.
                    page.dropSections()
                    said.dropAllButPageProblems()
                    firstPathOfID = [:]
                    floors = 0
                    continue
                case .found(.floor(let found)):
                    floor = found
                    floors += 1
                case .end(.failure(let error)):
                    return error
                case .end(.success(let spec)):
                    (page.next, page.title) = (spec.next, spec.title)
                    if floors == 0 {
                        said.add(
                            .warning, "the page has no floors; nothing to show", path: "floors", consequence: nil, at: 0
                        )
                    }
                    return nil
                }
                // Once the floor is done (whichever way it ends): what was said of it is positioned, and its
                // bytes are no longer needed.
                defer {
                    if handingBack {
                        said.resolve(before: floor.bytes.upperBound, in: raw, counted: floor.end)
                        handedBack = PageBytes.handBack(raw, from: handedBack, to: floor.bytes.upperBound)
                    }
                }
                let path = "floors[\(floor.index)]"
                let id = floor.id ?? path
                let origin = FloorOrigin(page: ordinal, floor: Int32(clamping: floor.index))
                let signature = floor.signature
                let start = floor.bytes.lowerBound
                /// Something about the floor or a field in it (`subpath`), at `offset` (default: where the
                /// subpath is in the floor's bytes).
                func say(
                    _ level: Diagnostic.Level, _ message: String, at subpath: String = "", plugin: String? = nil,
                    _ consequence: Diagnostic.Consequence?, offset: Int? = nil
                ) {
                    said.add(
                        level, message, path: DecodeReport.path(subpath, in: path), floorID: id, plugin: plugin,
                        consequence: consequence,
                        at: offset ?? (subpath.isEmpty ? start : JSONCursor.offset(of: subpath, in: raw, from: start)))
                }
                for problem in floor.problems { said.add(problem, floorID: id) }
                if floor.id == nil { say(.warning, "has no 'id'; using '\(path)'", nil) }
                if let first = firstPathOfID[id] {
                    say(
                        .warning, "duplicate floor id '\(id)' (first used by \(first)); ids must be unique in a page",
                        nil)
                } else {
                    firstPathOfID[id] = path
                }
                func placeholder(_ text: String) {
                    let model = Unmanaged.passRetained(BuiltinRows.Placeholder(text)).toOpaque()
                    page.append(
                        .init(
                            floorID: id, floorType: floor.type ?? "", path: path, file: file, origin: origin,
                            typeID: nil, model: model,
                            hasID: floor.id != nil, signature: signature))
                }
                guard let typeName = floor.type else {
                    placeholder("floor '\(id)' has no usable type")
                    continue
                }
                guard let typeID = registry.floorTypeID(named: typeName) else {
                    let known = registry.floorTypeNames.joined(separator: ", ")
                    let guess = Suggestion.didYouMean(typeName, among: registry.floorTypeNames)
                    say(
                        .error,
                        "unknown floor type '\(typeName)': no loaded plugin registers it (loaded: \(known.isEmpty ? "none" : known))\(guess)",
                        .placeholder)
                    placeholder("unknown floor type '\(typeName)' (floor '\(id)')")
                    continue
                }
                let type = registry.floorTypes[Int(typeID)]
                let plugin = registry.plugins[type.plugin].id
                // The common fields `layout` and `columns` (ABI 1.5): what the floor cannot show as written is an
                // error (the screen differs from the page), and the floor still shows, as a list or clamped.
                let (collection, layoutProblems) = type.layouts.resolve(floor.collection, typeName: typeName)
                func reportLayoutProblems() {
                    for (subpath, message) in layoutProblems {
                        let jsonPath = DecodeReport.path(subpath, in: path)
                        page.report(
                            Diagnostic(
                                .error, "\(file): \(jsonPath) (floor '\(id)'): \(message)", file: file, plugin: plugin,
                                path: jsonPath))
                    }
                }
                // A plugin before ABI 1.5 passes strings back NUL-terminated (canvas text, jump, param): a page
                // string holding U+0000 would reach the screen, a tap or an impression cut there, without a
                // word (docs/ABI-1.5.md, part 5). Such a floor is not given to it.
                let minor = registry.plugins[type.plugin].abiMinor
                if minor < 5, !floor.stringsWithNUL.isEmpty {
                    for string in floor.stringsWithNUL {
                        said.add(
                            .error,
                            "holds U+0000, where plugin \(plugin) (ABI 1.\(minor): strings end at U+0000) would cut it; the floor is not given to it",
                            path: string.path, floorID: id, plugin: plugin, consequence: .placeholder, at: string.offset
                        )
                    }
                    placeholder(
                        "\(typeName) '\(id)' not shown: a string holds U+0000, which plugin \(plugin) would cut")
                    continue
                }
                if let skipped = registry.skippedFloors[origin] {
                    say(
                        .error, "not shown: plugin \(plugin) \(skipped.what) on this floor\(skipped.lastWords)",
                        plugin: plugin, .placeholder)
                    placeholder("\(typeName) '\(id)' not shown: its plugin \(skipped.what)")
                    continue
                }
                if let kept = reusing?.take(
                    FloorKey(type: typeName, id: floor.id, whole: signature.whole), typeID: typeID,
                    whole: signature.whole)
                {
                    reportLayoutProblems()
                    page.append(
                        .init(
                            floorID: id, floorType: typeName, path: path, file: file, origin: origin, typeID: typeID,
                            model: kept.page.sections[kept.index].model,
                            hasID: floor.id != nil, signature: signature, collection: collection), reusing: kept.rows)
                    continue
                }
                // The floor's fields against its type's schema (ABI 1.3), before the plugin sees them (a floor
                // reused unchanged from the page's previous version was checked then): checked by the scan, on
                // its one walk of the floor's bytes; nothing is allocated for a floor that conforms.
                let findings = (floor.findings ?? []).filter {
                    !(($0.kind == .unknownField || $0.kind == .nearMiss) && allowed.allows(path: $0.path))
                }
                let refusals = DecodeReport()
                registry.decodingFloor = (origin, id, typeName)
                let model = record.withPluginCall(.decode, on: origin) {
                    refusals.withReport { report in
                        let json = UnsafeMutableRawPointer(mutating: raw.baseAddress! + floor.bytes.lowerBound)
                        let result = try? type.decode.invoker.perform(
                            .pointer(type.context), .pointer(json), .uint(UInt64(floor.bytes.count)), .pointer(report)
                        )
                        if case .pointer(let model)? = result { return model }
                        return nil
                    }
                }
                // The floor type's validator (data checks before drawing), on a model that came back clean: run now so that what
                // it reports is known before the schema's findings are (its messages still come after them).
                var verdict: (valid: Bool, problems: DecodeReport)?
                if let model, refusals.errors.isEmpty, let validate = type.validate {
                    let problems = DecodeReport()
                    let valid = record.withPluginCall(.validate, on: origin) {
                        problems.withReport { report in
                            (try? validate.invoker.perform(.pointer(type.context), .pointer(model), .pointer(report)))
                                == .bool(true)
                        }
                    }
                    verdict = (valid, problems)
                }
                if !findings.isEmpty {
                    // An unknown field is the schema's alone to report; a wrong or missing value the decoder
                    // refused (or left out: an item dropped by DroppingBrokenItems, reported by the validator)
                    // at the same path is said once, by the plugin.
                    let leftOut = verdict?.valid == true ? verdict?.problems.errors.map(\.path) ?? [] : []
                    // `layout` and `columns` are the host's to report (an error saying what it did instead).
                    let refused = Set(refusals.errors.map(\.path) + leftOut + layoutProblems.map(\.0))
                    let shown = findings.filter { $0.kind == .unknownField || !refused.contains($0.path) }
                    for finding in shown.prefix(SchemaFinding.shownPerFloor) {
                        // A near miss means the field the editor meant is missing: the screen differs.
                        let level: Diagnostic.Level = finding.kind == .unknownField ? .warning : .error
                        say(level, finding.message, at: finding.path, .ignored, offset: finding.offset)
                    }
                    if shown.count > SchemaFinding.shownPerFloor {
                        let more = shown.dropFirst(SchemaFinding.shownPerFloor)
                        say(
                            more.contains { $0.kind != .unknownField } ? .error : .warning,
                            "\(more.count) more fields do not match the schema of \(typeName) (the first \(SchemaFinding.shownPerFloor) are listed); `floorhost schema` shows what it expects",
                            .ignored, offset: more.first?.offset)
                    }
                }
                guard let model else {
                    let errors =
                        refusals.errors.isEmpty ? [("", "refused by the plugin without a reason")] : refusals.errors
                    for (subpath, message) in errors {
                        say(.error, "\(message) (plugin \(plugin))", at: subpath, .placeholder)
                    }
                    let first = errors[0]
                    placeholder("\(typeName) '\(id)' not shown: \(first.0.isEmpty ? "" : first.0 + ": ")\(first.1)")
                    continue
                }
                // floor_abi.h: decode returns NULL after report->error. A model that comes with errors is a
                // decoder at odds with itself: its errors are shown, the model destroyed, the floor left out.
                if !refusals.errors.isEmpty {
                    for (subpath, message) in refusals.errors {
                        say(.error, "\(message) (plugin \(plugin))", at: subpath, plugin: plugin, .placeholder)
                    }
                    say(
                        .error,
                        "plugin \(plugin)'s decoder \(type.decode.name) reported \(refusals.errors.count) error\(refusals.errors.count == 1 ? "" : "s") and still returned a model; a decoder returns NULL after report->error, so the model is destroyed",
                        plugin: plugin, .placeholder)
                    record.withPluginCall(.destroy, on: origin) {
                        _ = try? type.destroy.invoker.perform(.pointer(type.context), .pointer(model))
                    }
                    let first = refusals.errors[0]
                    placeholder("\(typeName) '\(id)' not shown: \(first.0.isEmpty ? "" : first.0 + ": ")\(first.1)")
                    continue
                }
                // An invalid floor is reported and left out.
                if let (valid, problems) = verdict {
                    if !valid {
                        let found = problems.errors.isEmpty ? [("", "invalid, without a reason")] : problems.errors
                        for (subpath, message) in found {
                            say(.error, "invalid: \(message) (plugin \(plugin))", at: subpath, plugin: plugin, .leftOut)
                        }
                        record.withPluginCall(.destroy, on: origin) {
                            _ = try? type.destroy.invoker.perform(.pointer(type.context), .pointer(model))
                        }
                        continue
                    }
                    // floor_abi.h: problems reported with a true verdict are warnings (e.g. items left out
                    // by the SDK's DroppingBrokenItems); the floor is shown.
                    for (subpath, message) in problems.errors {
                        say(.error, "\(message) (plugin \(plugin))", at: subpath, plugin: plugin, .leftOut)
                    }
                }
                reportLayoutProblems()
                page.append(
                    .init(
                        floorID: id, floorType: typeName, path: path, file: file, origin: origin, typeID: typeID,
                        model: model,
                        hasID: floor.id != nil, signature: signature, collection: collection))
            }
        }
        // Unusable: the floors decoded before the scan met the error go with the page.
        if let unusable {
            var error = PageError(file: file, line: unusable.line, column: unusable.column, reason: unusable.message)
            error.offset = unusable.offset
            throw error
        }
        return page
    }
}
