import Foundation

/// Which session makes room when a new one would pass the cap (Preview.maxSessions, 256): the least
/// recently used of the idle ones. A live tab (its event stream open, or a view report within the last 10
/// minutes) never goes for idle ones, so page loads any web site can cause (a GET of /page/...) end no tab
/// someone is looking at. Only when every session is live does the least recently used go; its tab is told
/// ("expired") and reloads into a fresh session at its scroll position (the address holds it).
package enum SessionEviction {
    /// How long after its last view report a tab without an event stream still counts as live.
    package static let liveFor: TimeInterval = 600

    package struct Candidate {
        package let id: String
        package let lastUsed: Date
        package let lastViewReport: Date?
        package let streams: Int

        package init(id: String, lastUsed: Date, lastViewReport: Date?, streams: Int) {
            self.id = id
            self.lastUsed = lastUsed
            self.lastViewReport = lastViewReport
            self.streams = streams
        }

        package func isLive(at now: Date) -> Bool {
            streams > 0 || lastViewReport.map { now.timeIntervalSince($0) < SessionEviction.liveFor } ?? false
        }
    }

    /// The session to forget, or nil when there is none.
    package static func choose(_ candidates: [Candidate], now: Date = Date()) -> String? {
        let idle = candidates.filter { !$0.isLive(at: now) }
        return (idle.isEmpty ? candidates : idle).min { $0.lastUsed < $1.lastUsed }?.id
    }

    /// What an ended session's tabs are pushed before their streams end.
    package static let message = "expired"
}
