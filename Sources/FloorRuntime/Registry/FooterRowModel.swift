/// What the host's footer row draws and taps: the layout's LoadStateFooter is the one model. A protocol so
/// that the runtime registers the row without knowing the layer that keeps the footer's state.
package protocol FooterRowModel: AnyObject {
    /// The line the footer draws.
    var text: String { get }
    /// The next page whose load failed, while it has (the footer is then tappable: its action retries).
    var failedPage: String? { get }
}
