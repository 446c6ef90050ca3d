import Testing

@testable import FloorText

/// The shaped-piece cache (ShapedPieces) packs its pieces' units and advances one after another: each
/// piece found gives back its own advances whatever the lengths around it, and a full pool empties the
/// cache rather than overwrite a piece still listed.
@Suite struct ShapedPiecesTests {
    /// Piece `n`: `length` units derived from n, and advances that name the piece and the unit.
    func piece(_ n: Int, length: Int) -> (units: [UInt16], advances: [Int32]) {
        ((0..<length).map { UInt16(truncatingIfNeeded: 0x4E00 + n * 7 + $0) }, (0..<length).map { Int32(n * 100 + $0) })
    }

    func find(_ pieces: ShapedPieces, _ units: [UInt16], face: Int) -> [Int32]? {
        units.withUnsafeBufferPointer { text in
            let key = ShapedPieces.key(face: face, text, 0, text.count)
            return pieces.find(key, face: face, text, 0, text.count).map {
                Array(UnsafeBufferPointer(start: $0, count: text.count))
            }
        }
    }

    func insert(_ pieces: ShapedPieces, _ units: [UInt16], _ advances: [Int32], face: Int) {
        units.withUnsafeBufferPointer { text in
            advances.withUnsafeBufferPointer { shaped in
                pieces.insert(
                    ShapedPieces.key(face: face, text, 0, text.count), face: face, text, 0, text.count,
                    advances: shaped.baseAddress!)
            }
        }
    }

    @Test func packedPiecesKeepTheirOwnAdvances() {
        let pieces = ShapedPieces(capacity: 64)
        // Lengths 1 to 32, in an order that puts short and long pieces side by side.
        let lengths = (0..<40).map { [1, 32, 3, 17, 2, 9, 31, 5][$0 % 8] }
        var kept: [(units: [UInt16], advances: [Int32])] = []
        for (n, length) in lengths.enumerated() {
            let made = piece(n, length: length)
            insert(pieces, made.units, made.advances, face: n % 2)
            kept.append(made)
            if pieces.count == 1 { kept = [made] }  // the pool filled and was emptied: only this one is listed
        }
        #expect(!kept.isEmpty)
        for (n, made) in kept.enumerated() {
            let face = (lengths.count - kept.count + n) % 2
            #expect(find(pieces, made.units, face: face) == made.advances, "piece \(n)")
            #expect(find(pieces, made.units, face: 1 - face) == nil, "another face's piece")
        }
    }

    @Test func aFullPoolEmptiesTheCache() {
        let pieces = ShapedPieces(capacity: 4)  // a pool of 4 x unitsPerPiece units
        let long = piece(1, length: ShapedPieces.maxUnits)
        insert(pieces, long.units, long.advances, face: 0)
        #expect(find(pieces, long.units, face: 0) == long.advances)
        let second = piece(2, length: ShapedPieces.maxUnits)
        insert(pieces, second.units, second.advances, face: 0)
        // 64 units do not fit a pool of 48 beside the first: the cache started again with the second.
        #expect(pieces.count == 1)
        #expect(find(pieces, long.units, face: 0) == nil)
        #expect(find(pieces, second.units, face: 0) == second.advances)
        // A piece longer than maxUnits is never kept.
        let tooLong = piece(3, length: ShapedPieces.maxUnits + 1)
        insert(pieces, tooLong.units, tooLong.advances, face: 0)
        #expect(find(pieces, tooLong.units, face: 0) == nil && pieces.count == 1)
    }
}
