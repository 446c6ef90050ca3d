import Testing

@testable import FloorKit

/// Which of Declared, ExtendableFloor and ItemsFloor a model conforms to, as FloorKind reads it
/// (`asDeclared`, `asExtendableFloor`, `asItemsFloor`): the SDK's defaults, picked when the model compiles,
/// answer what a cast would, whichever file or extension declares each conformance.
struct FloorModelProtocolsTests {
    /// Declared here, a FloorModel and an ItemsFloor in an extension below (as the shipped ProductFeed is).
    struct Board: Declared {
        struct Note: Declared, FloorItem {
            var id: String
            init(_ f: Fields) throws(DecodeError) { id = try f.string("id") }
        }
        var items: [Note]
        init(_ f: Fields) throws(DecodeError) { items = try f.list("items") }
    }

    /// Decodable only, continued by a next page through its own `extend`.
    struct Log: ExtendableFloor {
        static let floorType = "Log"
        static let rowTypes = [RowType<Log>("LogLine", height: { _, _, _ in 10 }, cell: { _, _, _ in })]
        static let sampleJSON = #"{"type":"Log","id":"l","lines":["a"]}"#
        var lines: [String]
        func expand(into rows: inout FloorRows<Log>) { rows.append(Self.rowTypes[0]) }
        mutating func extend(with next: Log) -> [FloorProblem] {
            lines += next.lines
            return []
        }
    }

    /// Decodable only, and nothing else.
    struct Banner: FloorModel {
        static let floorType = "Banner"
        static let rowTypes = [RowType<Banner>("BannerRow", height: { _, _, _ in 10 }, cell: { _, _, _ in })]
        static let sampleJSON = #"{"type":"Banner","id":"b"}"#
        func expand(into rows: inout FloorRows<Banner>) { rows.append(Self.rowTypes[0]) }
    }

    /// The answers for `model` (through FloorModel alone, as FloorKind sees it) against the casts'.
    func answers<Model: FloorModel>(_ model: Model.Type) -> [Bool] {
        let found = [Model.asDeclared != nil, Model.asExtendableFloor != nil, Model.asItemsFloor != nil]
        let cast = [
            Model.self is any Declared.Type, Model.self is any ExtendableFloor.Type, Model.self is any ItemsFloor.Type,
        ]
        #expect(found == cast, "\(Model.self)")
        return found
    }

    @Test func eachModelIsHandledByTheProtocolsItConformsTo() {
        #expect(answers(Board.self) == [true, true, true])
        #expect(answers(Log.self) == [false, true, false])
        #expect(answers(Banner.self) == [false, false, false])
        #expect(Board.asItemsFloor.map { $0 == Board.self } == true)
    }
}

extension FloorModelProtocolsTests.Board: ItemsFloor {
    static let floorType = "Board"
    static let rowTypes = [RowType<Self>("BoardNote", height: { _, _, _ in 10 }, cell: { _, _, _ in })]
    static let sampleJSON = #"{"type":"Board","id":"b","items":[{"id":"n1"}]}"#
    func expand(into rows: inout FloorRows<Self>) {
        for item in items.indices { rows.append(Self.rowTypes[0], item: item) }
    }
}
