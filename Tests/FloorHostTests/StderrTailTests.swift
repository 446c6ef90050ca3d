import FloorCore
import FloorSession
import Foundation
import Testing

/// A supervised child's stderr is passed through as it comes and its end kept (StderrTail), with a real
/// process: what the crash message quotes.
struct StderrTailTests {
    @Test func theLastLinesOfAChildsStderrAreKeptWhateverHowItEnds() throws {
        let tail = StderrTail()
        let ending = try ChildProcess.runInheritingOutput(
            [
                "/bin/sh", "-c",
                "echo 'stderr-tail test: one' >&2; echo >&2; echo 'stderr-tail test: two' >&2; echo 'stderr-tail test: three' >&2; kill -SEGV $$",
            ],
            stderrTail: tail
        ) { nil }
        #expect(ending == .signaled(SIGSEGV))
        #expect(tail.lastLines(2) == ["stderr-tail test: two", "stderr-tail test: three"], "blank lines do not count")
        #expect(tail.lastLines() == ["stderr-tail test: one", "stderr-tail test: two", "stderr-tail test: three"])
        tail.reset()
        #expect(tail.lastLines().isEmpty)
    }

    @Test func theTailIsBoundedAndLongLinesAreCut() {
        let tail = StderrTail(capacity: 64)
        tail.append(ArraySlice(Array(String(repeating: "x", count: 1000).utf8) + Array("\nend\n".utf8)))
        #expect(tail.bytes.count == 64)
        #expect(tail.lastLines(1) == ["end"])
        #expect(
            StderrTail.lastLines(of: String(repeating: "y", count: 400), maxLength: 300) == [
                String(repeating: "y", count: 300) + "..."
            ])
        #expect(StderrTail.quoted(["a", "b"]) == "\"a\" / \"b\"")
    }
}
