import CHarfBuzz
import Glibc
import Synchronization

/// What PlainGlyphs works out of a font face's layout tables, kept in a file between processes, as fontconfig keeps
/// what it reads of fonts: its `TableFacts` (which candidates' glyphs no lookup acts at, which may start a kerned
/// pair or a ligature, where a lookup may act) and, worked out at once when first kept, every candidate shaped
/// alone, every pair a pair subtable may move and every ideograph (`PlainGlyphs.Learned`). Reading the tables
/// and meeting a page's characters one by one was a third of the in-process json render of a small page (15.3 M of
/// 62.4 M instructions for the tables alone); a process that takes them from here shapes nothing and looks into
/// nothing (BENCHMARKS.md, issue 23, "Font facts kept between runs"). They are the face's, not a page's.
///
/// A file holds one face's facts after the identity they were worked out from: the font file's device, inode,
/// size and modification time (as mapped: `FontFile.Identity`), its path, the face's index, HarfBuzz's version
/// and this format's. They are used only while that identity is the face's own: a font package upgraded, or
/// another HarfBuzz, and they are worked out again and the file written anew. A file that cannot be read, is cut
/// short, does not parse or holds a value PlainGlyphs could not hold counts as absent (it is a cache). A file is
/// written whole under a name of its own, then renamed over the old one, so a process never reads half of what
/// another writes. Nothing is kept while no directory is set (`use(directory:)`): the test kit and the SDK's tests
/// work everything out as they meet it, in every process.
public enum FontFactsCache {
    /// Raised whenever what `TableFacts` holds, or how PlainGlyphs works it out, changes: a file of another format
    /// is read again from the tables.
    static let format: UInt32 = 2
    /// What every file of facts starts with.
    private static let magic = Array("floorkit font facts\n".utf8)

    private static let directory = Mutex<String?>(nil)
    /// Files written by this process so far: each is written under a temporary name of its own.
    private static let writes = Atomic<Int>(0)

    /// Keeps faces' facts in `directory` (made when first written to, with its parents), or in no file (nil).
    /// Set before any text is measured: floorhost sets it as its process starts.
    public static func use(directory: String?) {
        self.directory.withLock { $0 = directory.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// The directory facts are kept in (nil: none).
    public static var currentDirectory: String? { directory.withLock { $0 } }

    /// The facts kept in `folder` for `face` (`.some(nil)`: kept as having no plain characters); nil when none
    /// are kept for it as it is now.
    static func load(_ face: FontFace, from folder: String) -> PlainGlyphs.TableFacts?? {
        let path = file(for: face, in: folder)
        // Not blocking: a FIFO put where a file should be is not waited on (fstat then finds it is no file).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            info.st_size <= Self.largestFile
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard read == bytes.count else { return nil }
        var reader = Reader(bytes)
        guard reader.header() == header(for: face) else { return nil }
        return reader.facts()
    }

    /// Keeps `facts` in `folder` as `face`'s, replacing what was kept; a failure to write is not an error (it is a
    /// cache).
    static func store(_ facts: PlainGlyphs.TableFacts?, of face: FontFace, in folder: String) {
        let path = file(for: face, in: folder)
        guard makeDirectories(folder) else { return }
        var bytes = header(for: face)
        Writer.append(facts, to: &bytes)
        // A name nothing else writes (this process's id and this write's number: the engines of two threads may
        // keep the same face at once), made here, never opened through a file or link already there.
        let temporary = temporaryName(for: path, write: writes.add(1, ordering: .relaxed).oldValue)
        func create() -> Int32 { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        var fd = create()
        if fd < 0 && errno == EEXIST {
            // Left by an earlier process of the same id that stopped before renaming it.
            unlink(temporary)
            fd = create()
        }
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
    }

    /// The name write number `write` of this process writes `path` under before renaming it.
    static func temporaryName(for path: String, write: Int) -> String { path + ".\(getpid()).\(write).tmp" }

    /// The number the next write of this process takes.
    static var nextWrite: Int { writes.load(ordering: .relaxed) }

    /// A file of facts is 25-45 KB; anything much larger is not one.
    private static let largestFile = off_t(1 << 20)

    /// The file `face`'s facts are kept in: its font file's name and face index (the header says which file).
    private static func file(for face: FontFace, in folder: String) -> String {
        folder + "/" + face.file.fileName + "-\(face.file.faceIndex).facts"
    }

    /// What a file must start with to hold `face`'s facts as they are now: the format, HarfBuzz's version, the
    /// font file's identity, path and face index.
    static func header(for face: FontFace) -> [UInt8] {
        var bytes = magic
        Writer.append(UInt64(format), to: &bytes)
        Writer.append(String(cString: hb_version_string()), to: &bytes)
        let identity = face.identity
        for value in [identity.device, identity.inode, identity.size, identity.seconds, identity.nanoseconds] {
            Writer.append(value, to: &bytes)
        }
        Writer.append(face.file.path, to: &bytes)
        Writer.append(UInt64(face.file.faceIndex), to: &bytes)
        Writer.append(UInt64(PlainGlyphs.candidates.count), to: &bytes)
        return bytes
    }

    private static func makeDirectories(_ path: String) -> Bool {
        var isFolder = stat()
        if stat(path, &isFolder) == 0 { return isFolder.st_mode & S_IFMT == S_IFDIR }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            guard makeDirectories(String(path[..<slash])) else { return false }
        }
        return mkdir(path, 0o755) == 0 || errno == EEXIST
    }

    /// Little-endian words and length-prefixed strings and arrays.
    private enum Writer {
        static func append(_ value: UInt64, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        static func append(_ text: String, to bytes: inout [UInt8]) {
            append(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }

        static func append(_ facts: PlainGlyphs.TableFacts?, to bytes: inout [UInt8]) {
            guard let facts else {
                append(0, to: &bytes)
                return
            }
            append(1, to: &bytes)
            for glyph in facts.glyphs { append(UInt64(glyph), to: &bytes) }
            for starts in facts.startsPairs { append(starts ? 1 : 0, to: &bytes) }
            append(UInt64(facts.ligatures.count), to: &bytes)
            for (first, second) in facts.ligatures {
                append(UInt64(first), to: &bytes)
                append(UInt64(second), to: &bytes)
            }
            append(UInt64(facts.covered.count), to: &bytes)
            for word in facts.covered { append(word, to: &bytes) }
            guard let learned = facts.learned else {
                append(0, to: &bytes)
                return
            }
            append(1, to: &bytes)
            for alone in learned.alone {
                append(alone.map { UInt64(UInt32(bitPattern: $0)) } ?? UInt64.max, to: &bytes)
            }
            append(learned.pairs, to: &bytes)
            append(UInt64(learned.kerned.count), to: &bytes)
            for (pair, first) in learned.kerned {
                append(UInt64(pair), to: &bytes)
                append(UInt64(UInt32(bitPattern: first)), to: &bytes)
            }
            append(learned.ideographs, to: &bytes)
            append(UInt64(learned.ideographAdvances.count), to: &bytes)
            for advance in learned.ideographAdvances { append(UInt64(UInt32(bitPattern: advance)), to: &bytes) }
        }

        static func append(_ raw: [UInt8], to bytes: inout [UInt8]) {
            append(UInt64(raw.count), to: &bytes)
            bytes.append(contentsOf: raw)
        }
    }

    /// Reads what Writer wrote; nil at the first thing out of place.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func word() -> UInt64? {
            guard at + 8 <= bytes.count else { return nil }
            defer { at += 8 }
            return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        }

        /// The bytes of a header as long as the face's own would be (compared whole by the caller).
        mutating func header() -> [UInt8]? {
            let start = at
            guard bytes.starts(with: FontFactsCache.magic) else { return nil }
            at += FontFactsCache.magic.count
            guard word() != nil, raw() != nil else { return nil }
            for _ in 0..<5 { guard word() != nil else { return nil } }
            guard raw() != nil, word() != nil, word() != nil else { return nil }
            return Array(bytes[start..<at])
        }

        /// The facts (`.some(nil)`: none), with as many glyphs and covered words as PlainGlyphs has.
        mutating func facts() -> PlainGlyphs.TableFacts?? {
            guard let present = word(), present <= 1 else { return nil }
            guard present == 1 else { return .some(nil) }
            let candidates = PlainGlyphs.candidates.count
            var glyphs: [hb_codepoint_t] = []
            for _ in 0..<candidates {
                guard let glyph = word(), glyph <= UInt64(UInt32.max) else { return nil }
                glyphs.append(hb_codepoint_t(glyph))
            }
            var startsPairs: [Bool] = []
            for _ in 0..<candidates {
                guard let starts = word(), starts <= 1 else { return nil }
                startsPairs.append(starts == 1)
            }
            guard let ligatureCount = word(), ligatureCount <= UInt64(candidates * candidates) else { return nil }
            var ligatures: [(Int, Int)] = []
            for _ in 0..<Int(ligatureCount) {
                guard let first = word(), let second = word(), first < UInt64(candidates), second < UInt64(candidates)
                else {
                    return nil
                }
                ligatures.append((Int(first), Int(second)))
            }
            guard let coveredCount = word(), coveredCount == UInt64(PlainGlyphs.coveredWords) else { return nil }
            var covered: [UInt64] = []
            covered.reserveCapacity(Int(coveredCount))
            for _ in 0..<Int(coveredCount) {
                guard let value = word() else { return nil }
                covered.append(value)
            }
            // Facts with plain characters are kept with all of them worked out.
            guard word() == 1, let learned = learned(), at == bytes.count else { return nil }
            var facts = PlainGlyphs.TableFacts(
                glyphs: glyphs, startsPairs: startsPairs, ligatures: ligatures, covered: covered)
            facts.learned = learned
            return .some(facts)
        }

        /// An Int32 written as its bits in a word.
        private mutating func int32() -> Int32? {
            guard let value = word(), value <= UInt64(UInt32.max) else { return nil }
            return Int32(bitPattern: UInt32(value))
        }

        /// A length-prefixed string's or array's bytes.
        private mutating func raw() -> [UInt8]? {
            guard let count = word(), count <= UInt64(bytes.count - at) else { return nil }
            defer { at += Int(count) }
            return Array(bytes[at..<(at + Int(count))])
        }

        /// PlainGlyphs.Learned, each value within what PlainGlyphs holds.
        private mutating func learned() -> PlainGlyphs.Learned? {
            typealias Learned = PlainGlyphs.Learned
            let candidates = PlainGlyphs.candidates.count
            var alone: [Int32?] = []
            for _ in 0..<candidates {
                guard let value = word() else { return nil }
                if value == UInt64.max {
                    alone.append(nil)
                } else {
                    guard value <= UInt64(UInt32.max) else { return nil }
                    alone.append(Int32(bitPattern: UInt32(value)))
                }
            }
            guard let pairs = raw(), pairs.count == candidates * candidates,
                pairs.allSatisfy(Learned.pairStates.contains), let kernedCount = word(),
                kernedCount <= UInt64(pairs.count)
            else { return nil }
            var kerned: [(Int, Int32)] = []
            for _ in 0..<Int(kernedCount) {
                guard let pair = word(), pair < UInt64(pairs.count), let first = int32() else { return nil }
                kerned.append((Int(pair), first))
            }
            guard let ideographs = raw(), ideographs.isEmpty || ideographs.count == Learned.ideographBytes,
                let advanceCount = word(), advanceCount <= UInt64(Learned.ideographAdvanceRoom)
            else { return nil }
            var ideographAdvances: [Int32] = []
            for _ in 0..<Int(advanceCount) {
                guard let advance = int32() else { return nil }
                ideographAdvances.append(advance)
            }
            // Every plain ideograph's entry names one of the advances.
            let room = UInt8(ideographAdvances.count) + Learned.firstIdeographAdvance
            for byte in ideographs where byte & 0x0F >= room || byte >> 4 >= room { return nil }
            return Learned(
                alone: alone, pairs: pairs, kerned: kerned, ideographs: ideographs,
                ideographAdvances: ideographAdvances)
        }
    }
}
