import FloorCore

/// A page's floors after their plugins decoded them: one section per floor, in page order. The page owns
/// every model handle and gives each back to its plugin's destroy selector exactly once, when it goes.
public final class Page: @unchecked Sendable {
    public struct Section: Sendable {
        /// The floor's `id` on the page (or "floors[i]" when it had none).
        public let floorID: String
        /// The floor's `type` as written on the page.
        public let floorType: String
        /// Where the floor object is in the page: "floors[3]".
        public let path: String
        /// The page file the floor came from.
        public let file: String
        /// The floor's page in this run and its index in that page's `floors`: what a crash record names.
        public let origin: FloorOrigin
        /// The registry's floor type, or nil when the host draws a placeholder instead.
        package let typeID: Int32?
        /// The plugin's model handle, or an unmanaged BuiltinRows.Placeholder when typeID is nil.
        package nonisolated(unsafe) let model: UnsafeMutableRawPointer
        /// Whether the floor object had an `id` (else `floorID` is its path), and what its JSON holds: how
        /// a reload tells which floors and rows stayed the same (PageDiff).
        public let hasID: Bool
        /// A floor a next page continued carries both floors' (Adapter.append).
        public package(set) var signature: FloorSignature
        /// How its item rows are placed into columns (ABI 1.5): nil for a list.
        public let collection: CollectionLayout?

        package init(
            floorID: String, floorType: String, path: String, file: String, origin: FloorOrigin, typeID: Int32?,
            model: UnsafeMutableRawPointer, hasID: Bool, signature: FloorSignature, collection: CollectionLayout? = nil
        ) {
            self.collection = collection
            self.floorID = floorID
            self.floorType = floorType
            self.path = path
            self.file = file
            self.origin = origin
            self.typeID = typeID
            self.model = model
            self.hasID = hasID
            self.signature = signature
        }
    }

    public let file: String
    public private(set) var sections: [Section] = []
    /// The next page's location as written on the page (relative to `file`), or nil at the end. Set by the
    /// decoder once the scan has met the whole page object (`next` may follow `floors`).
    public package(set) var next: String?
    /// The page's `title`, or nil when it has none (see PageScanner); set as `next` is.
    public package(set) var title: String?
    /// What went wrong with individual floors; the page still renders.
    public private(set) var diagnostics: [Diagnostic] = []
    package let registry: Registry

    package init(file: String, next: String? = nil, title: String? = nil, registry: Registry) {
        self.file = file
        self.next = next
        self.title = title
        self.registry = registry
    }

    /// Sections whose model was handed over (merged into an earlier page's floor and destroyed there).
    private var consumed = Set<Int>()

    /// Sections whose model a reload took over from the page on screen (ReusableFloors), with the rows
    /// that model was expanded into: the adapter lists them instead of calling expand again.
    package private(set) var reusedRows: [Int: [ExpandedRow]] = [:]

    package func append(_ section: Section) { sections.append(section) }
    package func append(_ section: Section, reusing rows: [ExpandedRow]) {
        reusedRows[sections.count] = rows
        sections.append(section)
    }
    package func consume(section index: Int) { consumed.insert(index) }
    package func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    deinit { destroySections() }

    /// Drops every section so far, each model given back to its plugin (a page whose later `floors` array
    /// replaces the one decoded: PageDecoder).
    package func dropSections() {
        destroySections()
        (sections, consumed, reusedRows) = ([], [], [:])
    }

    private func destroySections() {
        for (index, section) in sections.enumerated() where !consumed.contains(index) {
            if let type = section.typeID {
                let destroy = registry.floorTypes[Int(type)]
                registry.crashRecord.withPluginCall(.destroy, on: section.origin) {
                    _ = try? destroy.destroy.invoker.perform(.pointer(destroy.context), .pointer(section.model))
                }
            } else {
                Unmanaged<BuiltinRows.Placeholder>.fromOpaque(section.model).release()
            }
        }
    }
}
