/// How the adapter calls the two hot selectors (height calculator, cell selector).
public enum DispatchMode: String, Sendable, CaseIterable {
    /// A direct call through the function pointer, allowed because the registered signature was checked.
    case typed
    /// Through libffi with the selector's declared signature: the generic `performSelector:` path.
    case ffi
}
