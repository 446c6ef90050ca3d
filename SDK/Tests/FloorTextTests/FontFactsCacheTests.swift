import CHarfBuzz
import Dispatch
import Foundation
import Glibc
import Testing

@testable import FloorText

/// What PlainGlyphs reads of a face's layout tables, kept in a folder between processes (FontFactsCache): read
/// back, it is what the tables give; kept for another font file, cut short or garbled, or where nothing can be
/// written, it is not used, and the tables are read again.
@Suite struct FontFactsCacheTests {
    /// A folder of its own under the temporary directory, removed with its files after `body`.
    func withFolder(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/font-facts-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        let folder = String(cString: template)
        defer {
            for name in names(in: folder) { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        try body(folder)
    }

    /// The names in `folder` (none when it cannot be read).
    func names(in folder: String) -> [String] {
        guard let entries = opendir(folder) else { return [] }
        defer { closedir(entries) }
        var names: [String] = []
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The faces the engine reads facts for, with what their tables give and every character worked out (as
    /// PlainGlyphs keeps them: `learned`).
    func faces() throws -> [(FontFace, PlainGlyphs.TableFacts?)] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let files = [FontSet.file(.sans), FontSet.file(.sansBold), FontSet.file(.cjk)]
        let faces = files.compactMap(FontFace.init)
        try #require(faces.count == files.count, "the font set's faces (run Scripts/setup)")
        var found: [(FontFace, PlainGlyphs.TableFacts?)] = []
        try withFolder { folder in
            for face in faces {
                // Worked out whole and known to the process from then on (or already: another test's).
                _ = PlainGlyphs(face: face, buffer: buffer!, keptIn: folder)
                let whole = PlainGlyphs.TableFacts.of(face, buffer: buffer!, keptIn: folder)
                let read = PlainGlyphs.TableFacts.read(face, buffer: buffer!)
                #expect(same(whole, read), "the facts kept are what the tables give")
                #expect(whole?.learned != nil)
                found.append((face, whole))
            }
        }
        return found
    }

    /// The same table facts (and, where both have them, the same characters worked out).
    func same(_ a: PlainGlyphs.TableFacts?, _ b: PlainGlyphs.TableFacts?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        let tables =
            a.glyphs == b.glyphs && a.startsPairs == b.startsPairs && a.covered == b.covered
            && a.ligatures.map { [$0.0, $0.1] } == b.ligatures.map { [$0.0, $0.1] }
        guard let x = a.learned, let y = b.learned else { return tables }
        return tables && x.alone == y.alone && x.pairs == y.pairs && x.ideographs == y.ideographs
            && x.ideographAdvances == y.ideographAdvances
            && x.kerned.map { [$0.0, Int($0.1)] } == y.kerned.map { [$0.0, Int($0.1)] }
    }

    @Test func factsKeptAreTheFactsTheTablesGive() throws {
        try withFolder { folder in
            for (face, facts) in try faces() {
                #expect(FontFactsCache.load(face, from: folder) == nil, "nothing kept yet")
                FontFactsCache.store(facts, of: face, in: folder)
                let kept = try #require(FontFactsCache.load(face, from: folder), "\(face.file.fileName) kept")
                #expect(same(kept, facts), "\(face.file.fileName)")
                #expect(facts != nil, "Noto Sans and Noto Sans CJK have plain characters")
            }
        }
    }

    @Test func aFolderMadeWithItsParentsWhenFirstWrittenTo() throws {
        try withFolder { folder in
            let (face, facts) = try faces()[0]
            let nested = folder + "/a/b"
            FontFactsCache.store(facts, of: face, in: nested)
            #expect(same(try #require(FontFactsCache.load(face, from: nested)), facts))
            for path in [nested + "/" + face.file.fileName + "-0.facts", nested, folder + "/a"] {
                #expect(unlink(path) == 0 || rmdir(path) == 0, "\(path)")
            }
        }
    }

    /// Every byte of a kept file changed in turn: the file is not used (its header names another font, another
    /// HarfBuzz or format, or what follows does not parse) or, where the byte is part of the facts themselves,
    /// it parses to facts that differ; and every length short of the whole is not used.
    @Test func aFileChangedOrCutShortIsNotUsed() throws {
        try withFolder { folder in
            let (face, facts) = try faces()[0]
            FontFactsCache.store(facts, of: face, in: folder)
            let path = folder + "/" + face.file.fileName + "-0.facts"
            let whole = try #require(read(path))
            let header = FontFactsCache.header(for: face).count
            for at in stride(from: 0, to: header, by: 1) {
                var changed = whole
                changed[at] ^= 0x5A
                try write(changed, to: path)
                #expect(FontFactsCache.load(face, from: folder) == nil, "byte \(at) of the header changed")
            }
            for count in [0, 1, header - 1, header, whole.count / 2, whole.count - 1] {
                try write(Array(whole[0..<count]), to: path)
                #expect(FontFactsCache.load(face, from: folder) == nil, "cut to \(count) bytes")
            }
            try write(whole + [0], to: path)
            #expect(FontFactsCache.load(face, from: folder) == nil, "a byte too many")
            var present = whole
            present[header] = 2
            try write(present, to: path)
            #expect(FontFactsCache.load(face, from: folder) == nil, "neither facts nor none")
            try write(whole, to: path)
            #expect(same(try #require(FontFactsCache.load(face, from: folder)), facts))
        }
    }

    /// Faces outside the font set (so that no other test's facts for them are known to this process): Noto
    /// Serif, which kerns pairs of candidates, and the Korean face of the CJK collection, for its ideographs.
    func facesOutsideTheSet() throws -> [FontFace] {
        let sans = FontSet.file(.sans)
        let cjk = FontSet.file(.cjk)
        let files = [
            FontSet.File(
                role: .sans, path: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", faceIndex: 0,
                package: sans.package, version: sans.version, sha256: ""),
            FontSet.File(
                role: .cjk, path: cjk.path, faceIndex: 1, package: cjk.package, version: cjk.version, sha256: ""),
        ]
        let faces = files.compactMap(FontFace.init)
        try #require(faces.count == 2 && faces.allSatisfy { $0.id == -1 })
        return faces
    }

    /// A face's facts worked out whole and kept, then taken from the file by another PlainGlyphs, measure every
    /// pair of candidates, prices and runs of ideographs exactly as a PlainGlyphs that keeps nothing and learns
    /// each as it meets it.
    @Test func factsTakenFromAFileMeasureAsFactsLearnedAsMet() throws {
        try withFolder { folder in
            for face in try facesOutsideTheSet() {
                let buffers = (0..<3).map { _ in hb_buffer_create()! }
                defer { for buffer in buffers { hb_buffer_destroy(buffer) } }
                let asMet = PlainGlyphs(face: face, buffer: buffers[0], keptIn: nil)
                _ = PlainGlyphs(face: face, buffer: buffers[1], keptIn: folder)
                let kept = try #require(FontFactsCache.load(face, from: folder), "\(face.file.fileName) kept")
                let learned = try #require(kept?.learned, "kept with every character worked out")
                let taken = PlainGlyphs(face: face, buffer: buffers[2], keptIn: folder)
                var texts: [[UInt16]] = []
                let candidates = PlainGlyphs.candidates
                for a in candidates { for b in candidates { texts.append([a, b]) } }
                texts += ["¥1,299.00", "To", "*.", ".?", "fi", "100% off"].map { Array($0.utf16) }
                if face.file.role == .cjk {
                    #expect(!learned.ideographs.isEmpty, "a CJK face keeps its ideographs")
                    let ideographs = Array(PlainGlyphs.ideographs)
                    for start in stride(from: 0, to: ideographs.count, by: 7) {
                        texts.append(Array(ideographs[start..<min(start + 7, ideographs.count)]))
                    }
                } else {
                    #expect(!learned.kerned.isEmpty, "Noto Serif kerns pairs of candidates")
                }
                for text in texts {
                    var expected = [Double](repeating: 0, count: text.count)
                    var got = [Double](repeating: 0, count: text.count)
                    let plain = text.withUnsafeBufferPointer {
                        asMet.advances($0.baseAddress!, count: $0.count, scale: 0.01, into: &expected)
                    }
                    let plainTaken = text.withUnsafeBufferPointer {
                        taken.advances($0.baseAddress!, count: $0.count, scale: 0.01, into: &got)
                    }
                    #expect(plain == plainTaken, "\(face.file.fileName) \(text)")
                    if plain && plainTaken { #expect(expected == got, "\(face.file.fileName) \(text)") }
                    var pricesExpected = [Double](repeating: 0, count: text.count)
                    var pricesGot = [Double](repeating: 0, count: text.count)
                    let measured = text.withUnsafeBufferPointer {
                        asMet.measure($0, start: 0, end: $0.count, scale: 0.01, into: &pricesExpected)
                    }
                    let measuredTaken = text.withUnsafeBufferPointer {
                        taken.measure($0, start: 0, end: $0.count, scale: 0.01, into: &pricesGot)
                    }
                    #expect(measured == measuredTaken, "\(face.file.fileName) \(text)")
                    #expect(pricesExpected == pricesGot, "\(face.file.fileName) \(text)")
                }
                #expect(asMet.learnedAsMet > 0)
                #expect(taken.learnedAsMet == 0, "\(face.file.fileName): nothing shaped or looked into, all taken")
            }
        }
    }

    @Test func facesWithoutPlainCharactersAreKeptAsSuch() throws {
        try withFolder { folder in
            let (face, _) = try faces()[0]
            FontFactsCache.store(nil, of: face, in: folder)
            let kept = FontFactsCache.load(face, from: folder)
            #expect(kept != nil, "kept")
            #expect(kept! == nil, "as having none")
        }
    }

    /// What stands where a face's file should be but is no file (a FIFO, which an open would wait on; a folder;
    /// a link to a device) is not read, and nothing is kept in its place.
    @Test(.timeLimit(.minutes(1))) func whatIsNoFileIsNotRead() throws {
        try withFolder { folder in
            let (face, facts) = try faces()[0]
            let path = folder + "/" + face.file.fileName + "-0.facts"
            #expect(mkfifo(path, 0o600) == 0)
            #expect(FontFactsCache.load(face, from: folder) == nil, "a FIFO")
            #expect(unlink(path) == 0)
            #expect(symlink("/dev/zero", path) == 0)
            #expect(FontFactsCache.load(face, from: folder) == nil, "a link to /dev/zero")
            #expect(unlink(path) == 0)
            #expect(mkdir(path, 0o700) == 0)
            #expect(FontFactsCache.load(face, from: folder) == nil, "a folder")
            FontFactsCache.store(facts, of: face, in: folder)
            #expect(FontFactsCache.load(face, from: folder) == nil, "not replaced by a file")
            #expect(rmdir(path) == 0)
            // Links where the temporary file goes (this write's name, and the next few: other tests may write too)
            // are not written through.
            let target = folder + "/target"
            let next = FontFactsCache.nextWrite
            for write in next..<(next + 16) {
                #expect(symlink(target, FontFactsCache.temporaryName(for: path, write: write)) == 0)
            }
            FontFactsCache.store(facts, of: face, in: folder)
            #expect(access(target, F_OK) != 0, "nothing written through a link")
            #expect(same(try #require(FontFactsCache.load(face, from: folder)), facts), "kept all the same")
        }
    }

    /// Threads of one process keeping the same face at once (the engines of the drawing and of the text writer)
    /// each write a file of their own and rename it: what is left is the facts, whole, and no temporary file.
    @Test func facesKeptAtOnceByManyThreadsLeaveOneWholeFile() throws {
        try withFolder { folder in
            let (face, facts) = try faces()[0]
            DispatchQueue.concurrentPerform(iterations: 16) { _ in FontFactsCache.store(facts, of: face, in: folder) }
            #expect(same(try #require(FontFactsCache.load(face, from: folder)), facts))
            #expect(names(in: folder) == [face.file.fileName + "-0.facts"])
        }
    }

    @Test func whereNothingCanBeWrittenNothingIsKept() throws {
        let (face, facts) = try faces()[0]
        for folder in ["/dev/null/font-facts", "/proc/font-facts"] {
            FontFactsCache.store(facts, of: face, in: folder)
            #expect(FontFactsCache.load(face, from: folder) == nil, "\(folder)")
        }
    }

    @Test func theDirectoryIsSetAndCleared() {
        let before = FontFactsCache.currentDirectory
        defer { FontFactsCache.use(directory: before) }
        FontFactsCache.use(directory: "")
        #expect(FontFactsCache.currentDirectory == nil, "an empty path keeps nothing")
        FontFactsCache.use(directory: before)
        #expect(FontFactsCache.currentDirectory == before)
    }

    func read(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) }
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
