import CFloorABI
import FloorCore
import HostContract

/// The `floor_host_t` one plugin registers through. One per plugin, kept for the life of the process
/// (the ABI lets a plugin log at any time). Registration is open only while the plugin's `init` runs.
package final class HostTable {
    package let registry: Registry
    package let plugin: Int
    /// Registration problems in the order they happened; the loader prefixes the plugin's file.
    package var refusals: [RegistrationError] = []
    package var registering = true
    package let table: UnsafeMutablePointer<floor_host_t>

    package init(registry: Registry, plugin: Int) {
        self.registry = registry
        self.plugin = plugin
        table = .allocate(capacity: 1)
        table.initialize(
            to: floor_host_t(
                struct_size: UInt32(MemoryLayout<floor_host_t>.size),
                abi_major: UInt32(FLOOR_ABI_MAJOR), abi_minor: UInt32(FLOOR_ABI_MINOR),
                host_data: nil,
                register_row_type: { host, rowType in HostTable.from(host)?.registerRowType(rowType) ?? -1 },
                register_floor_type: { host, floorType in HostTable.from(host)?.registerFloorType(floorType) ?? false },
                log: { host, level, message in HostTable.from(host)?.log(level, message) },
                measure_text: { _, text, style in TextMeasure.points(cString: text, style: style) },
                // ABI 1.5: the block a canvas's layout_text and text_block give for the same arguments.
                layout_text: { _, text, length, style, maxWidth, maxLines, out in
                    HostTextLayout.write(
                        HostTextLayout.measures(
                            utf8: text, length: length, style: style, maxWidth: maxWidth, maxLines: maxLines), to: out)
                }))
        table.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    private static func from(_ host: UnsafePointer<floor_host_t>?) -> HostTable? {
        guard let data = host?.pointee.host_data else { return nil }
        return Unmanaged<HostTable>.fromOpaque(data).takeUnretainedValue()
    }

    private func registerRowType(_ raw: UnsafePointer<floor_row_type_t>?) -> Int32 {
        guard let raw else {
            refusals.append(RegistrationError(.registration, "register_row_type was given NULL"))
            return -1
        }
        guard registering else {
            refuseLate("register_row_type", raw.pointee.type_name)
            return -1
        }
        // ABI 1.0 ended the struct after `cell`; fields past what the plugin compiled are absent, not zero.
        let size = Int(raw.pointee.struct_size)
        let minimum = MemoryLayout<floor_row_type_t>.offset(of: \floor_row_type_t.tappable)!
        guard size >= minimum else {
            refusals.append(
                RegistrationError(.registration, "a row type struct has struct_size \(size), smaller than \(minimum)"))
            return -1
        }
        // Each minor's fields are present when the plugin's struct reaches their end: a 1.4 row type ends
        // after `action`, before 1.5's `pages` (docs/ABI.md, "Versions").
        let has11 = StructSize.reaches(size, \floor_row_type_t.action)
        let has15 = StructSize.reaches(size, \floor_row_type_t.pages)
        let row = raw.pointee
        guard let cName = row.type_name, cName.pointee != 0 else {
            refusals.append(RegistrationError(.typeNames, "a row type has an empty type_name"))
            return -1
        }
        let name = String(cString: cName)
        if let refusal = Self.controlCharacters(in: name, kind: "row") {
            refusals.append(refusal)
            return -1
        }
        let result: Result<Int32, RegistrationError> = Result {
            let height = try Selector.check(
                row.height, slot: "height calculator of row type '\(name)'", expected: FLOOR_SIG_HEIGHT
            ).get()
            let cell = try Selector.check(
                row.cell, slot: "cell selector of row type '\(name)'", expected: FLOOR_SIG_CELL
            ).get()
            let tappable = try Selector.checkOptional(
                row.tappable, present: has11, slot: "tappable-items selector of row type '\(name)'",
                expected: FLOOR_SIG_TAPPABLE
            ).get()
            let action = try Selector.checkOptional(
                row.action, present: has11, slot: "action selector of row type '\(name)'", expected: FLOOR_SIG_ACTION
            ).get()
            let pages = try Selector.checkOptional(
                row.pages, present: has15, slot: "pages selector of row type '\(name)'", expected: FLOOR_SIG_PAGES
            ).get()
            guard (tappable == nil) == (action == nil) else {
                throw RegistrationError(
                    .selectorSignatures,
                    "row type '\(name)' registers \(tappable == nil ? "an action" : "tappable items") without \(tappable == nil ? "tappable items" : "an action"); give both or neither"
                )
            }
            return try registry.add(
                Registry.RowType(
                    name: name, plugin: plugin, context: row.context, height: height, cell: cell,
                    heightFunction: unsafeBitCast(height.function, to: HeightFunction.self),
                    cellFunction: unsafeBitCast(cell.function, to: CellFunction.self),
                    tappable: tappable, action: action, pages: pages)
            ).get()
        }.mapError { $0 as! RegistrationError }
        switch result {
        case .success(let id): return id
        case .failure(let error):
            refusals.append(error)
            return -1
        }
    }

    private func registerFloorType(_ raw: UnsafePointer<floor_floor_type_t>?) -> Bool {
        guard let raw else {
            refusals.append(RegistrationError(.registration, "register_floor_type was given NULL"))
            return false
        }
        guard registering else {
            refuseLate("register_floor_type", raw.pointee.type_name)
            return false
        }
        let size = Int(raw.pointee.struct_size)
        let minimum = MemoryLayout<floor_floor_type_t>.offset(of: \floor_floor_type_t.validate)!
        guard size >= minimum else {
            refusals.append(
                RegistrationError(.registration, "a floor type struct has struct_size \(size), smaller than \(minimum)")
            )
            return false
        }
        // 1.1 appended validate and extend, 1.3 schema_json, 1.5 layouts to inset: a field past what the plugin
        // compiled is absent.
        let has11 = StructSize.reaches(size, \floor_floor_type_t.extend)
        let has13 = StructSize.reaches(size, \floor_floor_type_t.schema_json)
        let has15 = StructSize.reaches(size, \floor_floor_type_t.inset)
        let floor = raw.pointee
        guard let cName = floor.type_name, cName.pointee != 0 else {
            refusals.append(RegistrationError(.typeNames, "a floor type has an empty type_name"))
            return false
        }
        let name = String(cString: cName)
        if let refusal = Self.controlCharacters(in: name, kind: "floor") {
            refusals.append(refusal)
            return false
        }
        let result: Result<Int32, RegistrationError> = Result {
            let decode = try Selector.check(
                floor.decode, slot: "decoder of floor type '\(name)'", expected: FLOOR_SIG_DECODE
            ).get()
            let expand = try Selector.check(
                floor.expand, slot: "expander of floor type '\(name)'", expected: FLOOR_SIG_EXPAND
            ).get()
            let destroy = try Selector.check(
                floor.destroy, slot: "destroyer of floor type '\(name)'", expected: FLOOR_SIG_DESTROY
            ).get()
            let validate = try Selector.checkOptional(
                floor.validate, present: has11, slot: "validator of floor type '\(name)'", expected: FLOOR_SIG_VALIDATE
            ).get()
            let extend = try Selector.checkOptional(
                floor.extend, present: has11, slot: "extender of floor type '\(name)'", expected: FLOOR_SIG_EXTEND
            ).get()
            var type = Registry.FloorType(
                name: name, plugin: plugin, context: floor.context,
                sampleJSON: floor.sample_json.map { String(cString: $0) },
                decode: decode, expand: expand, destroy: destroy, validate: validate, extend: extend)
            if has15 {
                var problems: [String] = []
                type.layouts = DeclaredLayouts(floor, problems: &problems)
                let info = registry.plugins[plugin]
                for problem in problems {
                    registry.pluginMessages.append(
                        Diagnostic(
                            .warning, "\(info.path): \(info.id): floor type '\(name)': \(problem)", file: info.path,
                            plugin: info.id))
                }
            }
            if has13, let text = floor.schema_json {
                switch DeclaredSchema.parse(String(cString: text)) {
                case .success(let schema): type.schema = schema
                case .failure(let problem):
                    // Not a refusal: the floor type works without a schema, and `conform` fails its `schema` check.
                    type.schemaProblem = problem.description
                    let info = registry.plugins[plugin]
                    registry.addPluginMessage(
                        Diagnostic(
                            .warning,
                            "\(info.path): \(info.id): the schema_json of floor type '\(name)' cannot be used (\(problem)); floors of this type are not checked against it until the plugin fixes it (`floorhost conform` shows the same)",
                            file: info.path, plugin: info.id))
                }
            }
            return try registry.add(type).get()
        }.mapError { $0 as! RegistrationError }
        switch result {
        case .success: return true
        case .failure(let error):
            refusals.append(error)
            return false
        }
    }

    /// The loader has reported `refusals` by the time init returned, so a late registration is told the
    /// way a plugin's log is: an error among the run's diagnostics, naming the plugin and its file.
    private func refuseLate(_ function: String, _ typeName: UnsafePointer<CChar>?) {
        let info = registry.plugins[plugin]
        let name = typeName.map { " ('" + String(cString: $0) + "')" } ?? ""
        registry.addPluginMessage(
            Diagnostic(
                .error,
                "\(info.path): \(info.id): \(function)\(name) called after init returned; refused (types are registered only during init)",
                file: info.path, plugin: info.id))
    }

    /// Type names appear in messages, text and json output: one with a control character could forge a line.
    private static func controlCharacters(in name: String, kind: String) -> RegistrationError? {
        guard name.unicodeScalars.contains(where: ControlCharacters.isUnsafe) else { return nil }
        return RegistrationError(
            .typeNames,
            "\(kind) type name '\(ControlCharacters.escaped(name))' contains control characters (C0, DEL, C1 or bidi controls); refused, since type names are printed"
        )
    }

    private func log(_ level: floor_log_level_t, _ message: UnsafePointer<CChar>?) {
        let info = registry.plugins[plugin]
        let text = message.map { String(cString: $0) } ?? ""
        let severity: Diagnostic.Level =
            level == FLOOR_LOG_ERROR ? .error : level == FLOOR_LOG_WARNING ? .warning : .info
        registry.addPluginMessage(Diagnostic(severity, "\(info.id): \(text)", file: info.path, plugin: info.id))
    }
}
