import FloorLayout

extension LoadStateFooter {
    /// The footer state that says `status`.
    package static func state(for status: NextPageStatus) -> State {
        switch status {
        case .notLoaded(let page, _): return .more(page: page)
        case .loading(let page, _): return .loading(page: page)
        case .failed(let page, let reason, _, _): return .failed(page: page, reason: reason)
        case .ended: return .end
        case .stopped(let stop, _): return .stopped(reason: stop.reason)
        }
    }
}
