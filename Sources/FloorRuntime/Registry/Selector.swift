import CFloorABI

/// A registered callable: its name, its checked signature, and the plugin's function pointer.
/// Immutable once registered; the function lives as long as the process (plugins are never unloaded).
package final class Selector: @unchecked Sendable {
    package let name: String
    package let signature: Signature
    package let function: floor_fn_t

    package init(name: String, signature: Signature, function: floor_fn_t) {
        self.name = name
        self.signature = signature
        self.function = function
    }

    /// The generic invoker for this selector, prepared on first use and kept.
    package private(set) lazy var invoker = SelectorInvoker(self)

    /// Why `raw` cannot serve a slot expecting `expected`, or nil when it can. `slot` names the field
    /// ("height calculator") in the message.
    package static func check(_ raw: floor_selector_t, slot: String, expected: String) -> Result<
        Selector, RegistrationError
    > {
        guard let fn = raw.fn else { return .failure(.init(.selectorSignatures, "\(slot) has no function")) }
        let name = raw.name.map { String(cString: $0) } ?? ""
        guard let encoding = raw.signature.map({ String(cString: $0) }) else {
            return .failure(.init(.selectorSignatures, "\(slot) '\(name)' has no signature; expected \(expected)"))
        }
        guard let signature = Signature(encoding) else {
            return .failure(
                .init(
                    .selectorSignatures,
                    "\(slot) '\(name)' has a malformed signature '\(encoding)'; expected \(expected)"))
        }
        guard encoding == expected else {
            return .failure(
                .init(.selectorSignatures, "\(slot) '\(name)' has signature \(encoding); expected \(expected)"))
        }
        return .success(Selector(name: name.isEmpty ? slot : name, signature: signature, function: fn))
    }
}

extension Selector {
    /// Like `check`, for a selector a plugin may leave out: a NULL function, or a struct too old to have the
    /// field (`present` false), is nil.
    package static func checkOptional(_ raw: floor_selector_t, present: Bool, slot: String, expected: String) -> Result<
        Selector?, RegistrationError
    > {
        guard present, raw.fn != nil else { return .success(nil) }
        return check(raw, slot: slot, expected: expected).map { $0 }
    }
}

/// Why the host refused a registration, as one sentence, and the load step it belongs to (which
/// `floorhost conform` reports as the failing check).
package struct RegistrationError: Error, Sendable {
    package let step: LoadStep
    package let message: String
    package init(_ step: LoadStep, _ message: String) {
        self.step = step
        self.message = message
    }
}
