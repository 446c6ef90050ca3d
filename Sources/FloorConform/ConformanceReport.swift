/// What `floorhost conform` found: per plugin file, one verdict per check, in ConformanceCheck.all order.
public struct ConformanceReport: Sendable, Codable, Equatable {
    public enum Verdict: String, Sendable, Codable { case pass, fail, skip }

    public struct Result: Sendable, Codable, Equatable {
        public let check: String
        public let stage: ConformanceCheck.Stage
        public var verdict: Verdict
        /// Why it failed or was skipped (nil when it passed): one line naming the selector, sample or call.
        public var reason: String?
        /// More lines for people, when one is not enough: a snapshot's diff, the command that reproduces a
        /// fuzz failure, the snapshot files recorded. Nil for most results.
        public var details: [String]? = nil
    }

    public struct Plugin: Sendable, Codable, Equatable {
        public let file: String
        /// From the descriptor, when the plugin got that far.
        public var id: String?
        public var name: String?
        public var version: String?
        public var results: [Result]
        public var passed: Bool { results.allSatisfy { $0.verdict == .pass } }

        public func result(_ check: ConformanceCheck) -> Result? { results.first { $0.check == check.id } }
        /// The checks that failed, by id.
        public var failed: [String] { results.filter { $0.verdict == .fail }.map(\.check) }
    }

    public var plugins: [Plugin]
    public var passed: Bool { !plugins.isEmpty && plugins.allSatisfy(\.passed) }
}
