/// Where a JSON path ("items[2].price") is in a value's bytes, for a diagnostic's line and column: the byte
/// offset of the member's key (or of the element), or, when the path goes further than the value does (a
/// missing field), of the deepest part that is there. Walks only down the path, skipping everything else;
/// called only for something to report. Keys holding '.' or '[' cannot be named by such a path; the walk
/// then stops at their parent.
extension JSONCursor {
    package static func offset(of path: String, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return start }
        var cursor = JSONCursor(base, count: bytes.count, skippingBOM: false)
        cursor.pos = start
        var found = start
        do {
            for part in JSONPathPart.parts(of: path) {
                cursor.skipWhitespace()
                switch part {
                case .key(let name):
                    guard cursor.at(JSONByte.openBrace), try cursor.openObject() else { return found }
                    var hit = false
                    repeat {
                        let keyStart = cursor.pos
                        let key = try cursor.key()
                        if cursor.text(key) == name {
                            (found, hit) = (keyStart, true)
                            break
                        }
                        _ = try cursor.skipValue()
                    } while try cursor.nextMember()
                    if !hit { return found }
                case .index(let wanted):
                    guard cursor.at(JSONByte.openBracket), try cursor.openArray() else { return found }
                    var index = 0
                    while index < wanted {
                        _ = try cursor.skipValue()
                        guard try cursor.nextElement() else { return found }
                        index += 1
                    }
                    cursor.skipWhitespace()
                    found = cursor.pos
                }
            }
        } catch {
            return found
        }
        return found
    }
}

extension JSONCursor {
    /// The JSON path ("items[2].title") of the innermost member or element of the value at `start` whose
    /// value holds byte `offset`: the inverse of `offset(of:in:from:)`, for a problem found by offset. Walks
    /// only down the containers that hold it; "" for the value itself or bytes that are not JSON.
    package static func path(to offset: Int, in bytes: UnsafeRawBufferPointer, from start: Int) -> String {
        guard let base = bytes.baseAddress, start < bytes.count else { return "" }
        var cursor = JSONCursor(base, count: bytes.count, skippingBOM: false)
        cursor.pos = start
        var path = ""
        do {
            descend: while true {
                cursor.skipWhitespace()
                if cursor.at(JSONByte.openBrace) {
                    guard try cursor.openObject() else { return path }
                    repeat {
                        let key = try cursor.key()
                        let valueStart = cursor.pos
                        _ = try cursor.skipValue()
                        if (valueStart..<cursor.pos).contains(offset) {
                            path += (path.isEmpty ? "" : ".") + cursor.text(key)
                            cursor.pos = valueStart
                            continue descend
                        }
                    } while try cursor.nextMember()
                } else if cursor.at(JSONByte.openBracket) {
                    guard try cursor.openArray() else { return path }
                    var index = 0
                    repeat {
                        cursor.skipWhitespace()
                        let valueStart = cursor.pos
                        _ = try cursor.skipValue()
                        if (valueStart..<cursor.pos).contains(offset) {
                            path += "[\(index)]"
                            cursor.pos = valueStart
                            continue descend
                        }
                        index += 1
                    } while try cursor.nextElement()
                }
                return path
            }
        } catch {
            return path
        }
    }
}

/// One step of a JSON path as diagnostics write it: `.name` or `[index]`.
package enum JSONPathPart: Equatable {
    case key(String)
    case index(Int)

    /// "items[2].price" → key items, index 2, key price; a leading '.' is allowed.
    package static func parts(of path: String) -> [JSONPathPart] {
        var parts: [JSONPathPart] = []
        var name = ""
        var index: String?
        for character in path {
            if var digits = index {
                if character == "]" {
                    if let n = Int(digits) { parts.append(.index(n)) }
                    index = nil
                } else {
                    digits.append(character)
                    index = digits
                }
                continue
            }
            switch character {
            case ".", "[":
                if !name.isEmpty { parts.append(.key(name)) }
                name = ""
                if character == "[" { index = "" }
            default: name.append(character)
            }
        }
        if !name.isEmpty { parts.append(.key(name)) }
        return parts
    }
}
