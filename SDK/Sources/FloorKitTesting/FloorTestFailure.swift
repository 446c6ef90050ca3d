/// Why a call into a plugin under test failed, or how it broke floor_abi.h: the message names the selector
/// and says what the contract expects, as floorhost would. `problems` are what the plugin itself reported
/// (a decoder's or validator's refusals), with paths relative to the floor object.
public struct FloorTestFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public let problems: [ReportedProblem]

    init(_ description: String, problems: [ReportedProblem] = []) {
        self.description = description
        self.problems = problems
    }
}

/// A problem a plugin reported through floor_report_t: a path relative to the floor object ("" for the
/// floor itself, "items[2].price" inside it) and a message.
public struct ReportedProblem: Equatable, Hashable, CustomStringConvertible, Sendable {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension [ReportedProblem] {
    init(_ report: [(path: String, message: String)]) {
        self = report.map { ReportedProblem(path: $0.path, message: $0.message) }
    }
}
