// The terminal view's figures (issue 11), in-process: `floorhost view`'s PageViewer and TerminalFrame on
// pages of the drawing Bulk plugin (trivial_plugin.c built with -DBULK_DRAWS: a bold title, a muted line,
// an accent price and a rule a row, so a frame costs what a product feed's does).
//   "view scroll step 80x40 (1000000 rows)"  one `j` (a line down) and the whole frame drawn, styled, and
//                                            written to /dev/null: key to bytes written. Target p99 <= 16 ms.
//   "view resize new width (10000 rows)"     the terminal becomes one column wider (a width never laid out
//                                            before: every height measured again) and the frame is drawn
//                                            and written. Target <= 50 ms.
import Benchmark
import Foundation

@testable import FloorRuntime
@testable import FloorSession
@testable import FloorTerminal

/// A viewer of `page` in an 80x40 terminal, the drawing plugin loaded in-process.
func drawingViewer(_ page: String, columns: Int = 80, lines: Int = 40) -> PageViewer {
    do {
        let host = try FloorHost(pluginFolder: Inputs.path("drawing-plugin"))
        precondition(
            host.loadDiagnostics.isEmpty, "the drawing plugin did not load: \(host.loadDiagnostics.map(\.message))")
        let file = Inputs.path(page)
        let viewer = try PageViewer(
            host: host, page: file, root: PageRoot(around: file), columns: columns, lines: lines)
        viewer.styled = true
        return viewer
    } catch {
        fatalError("\(page): \(error)")
    }
}

/// What ViewLoop.draw does, to /dev/null: the frame's bytes built and written.
func drawFrame(_ viewer: PageViewer) {
    let bytes = TerminalFrame.bytes(TerminalFrame.lines(viewer))
    let written = bytes.withUnsafeBytes { write(devNull, $0.baseAddress, $0.count) }
    precondition(written == bytes.count)
}

nonisolated(unsafe) var scrollViewer: PageViewer!
nonisolated(unsafe) var resizeViewer: PageViewer!
nonisolated(unsafe) var resizeColumns = 80
let devNull = open("/dev/null", O_WRONLY)

func viewBenchmarks() {
    Benchmark(
        "view scroll step 80x40 (1000000 rows)",
        configuration: timeConfiguration(maxIterations: 5_000, seconds: 10, warmup: 20),
        closure: { benchmark in
            let viewer = scrollViewer!
            benchmark.startMeasurement()
            _ = viewer.handle(.character("j"))
            drawFrame(viewer)
            benchmark.stopMeasurement()
        },
        setup: {
            if scrollViewer == nil {
                scrollViewer = drawingViewer("bulk-1m-1.json")
                precondition(scrollViewer.adapter.rowCount == 1_000_000)
                // Halfway down, so that every step scrolls (5,000 lines are far from the end).
                scrollViewer.resume(at: scrollViewer.session.maxOffset / 2)
            }
        })

    Benchmark(
        "view resize new width (10000 rows)",
        configuration: timeConfiguration(maxIterations: 150, seconds: 20, warmup: 2),
        closure: { benchmark in
            let viewer = resizeViewer!
            resizeColumns += 1
            let calls = viewer.adapter.stats.heightCalls
            benchmark.startMeasurement()
            viewer.resize(columns: resizeColumns, lines: 40)
            drawFrame(viewer)
            benchmark.stopMeasurement()
            precondition(viewer.adapter.stats.heightCalls - calls >= 10_000, "a new width measures every row")
        },
        setup: {
            if resizeViewer == nil {
                resizeViewer = drawingViewer("bulk-10k.json")
                precondition(resizeViewer.adapter.rowCount == 10_000)
                resizeViewer.resume(at: resizeViewer.session.maxOffset / 2)
            }
        })
}
