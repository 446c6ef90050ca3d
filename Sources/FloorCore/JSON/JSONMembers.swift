extension JSONWriter {
    /// Writes an object: `{`, the members `body` writes, `}`; the commas between members are written for it.
    /// `body` writes into the same buffer (moved into `Members` and back, not copied).
    @inlinable
    public mutating func object(_ body: (inout Members) throws -> Void) rethrows {
        var members = Members()
        swap(&members.writer, &self)
        defer { swap(&members.writer, &self) }
        members.writer.raw("{")
        try body(&members)
        members.writer.raw("}")
    }

    /// An object's members as they are written (`object(_:)`): each `key` (or a `member`, which is a key and its
    /// value) after the first starts with a comma.
    public struct Members {
        /// The writer the members go into: a member's value that no `member` form writes (an array, a value
        /// written by another function) is written here after its `key`.
        public var writer = JSONWriter(capacity: 0)
        @usableFromInline var count = 0

        @inlinable init() {}

        /// `"name":`, after a comma but for the first member; the value follows in `writer`.
        @inlinable
        public mutating func key(_ name: StaticString) {
            if count > 0 { writer.raw(",") }
            count += 1
            writer.key(name)
        }

        @inlinable
        public mutating func member(_ name: StaticString, _ value: String) {
            key(name)
            writer.string(value)
        }

        /// `null` for nil.
        @inlinable
        public mutating func member(_ name: StaticString, _ value: String?) {
            key(name)
            writer.optional(value)
        }

        /// `null` for nil.
        @inlinable
        public mutating func member(_ name: StaticString, _ value: Int?) {
            key(name)
            if let value { writer.number(value) } else { writer.raw("null") }
        }

        @inlinable
        public mutating func member(_ name: StaticString, _ value: Int) {
            key(name)
            writer.number(value)
        }

        @inlinable
        public mutating func member(_ name: StaticString, _ value: Double) {
            key(name)
            writer.number(value)
        }

        @inlinable
        public mutating func member(_ name: StaticString, _ value: Bool) {
            key(name)
            writer.raw(value ? "true" : "false")
        }

        /// A member whose value is an object.
        @inlinable
        public mutating func object(_ name: StaticString, _ body: (inout Members) throws -> Void) rethrows {
            key(name)
            try writer.object(body)
        }

        /// A member whose value is `value`'s object (`body` writes its members), or null for nil.
        @inlinable
        public mutating func object<Value>(
            _ name: StaticString, _ value: Value?, _ body: (Value, inout Members) throws -> Void
        ) rethrows {
            key(name)
            guard let value else { return writer.raw("null") }
            try writer.object { try body(value, &$0) }
        }

        /// A member whose value is an array: `[`, what `element` writes for each of `elements` (commas between), `]`.
        @inlinable
        public mutating func array<Elements: Sequence>(
            _ name: StaticString, _ elements: Elements, _ element: (Elements.Element, inout JSONWriter) throws -> Void
        ) rethrows {
            key(name)
            writer.raw("[")
            var first = true
            for e in elements {
                if !first { writer.raw(",") }
                first = false
                try element(e, &writer)
            }
            writer.raw("]")
        }
    }
}
