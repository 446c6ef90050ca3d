import CFloorABI
import HostContract
import Testing

/// The recording canvas conform and the test kit draw cells into (HostContract): every call kept as it
/// was made, ABI 1.4's fill and struck text included, and the text a snapshot writes for each. How the
/// other backends draw fill and strike is the root package's CanvasFillStrikeTests.
struct RecordingCanvasTests {
    @Test func theRecorderKeepsFillsAndStruckText() {
        let operations = RecordingCanvas.record(width: 100, height: 24) { canvas in
            canvas.pointee.fill(canvas, 0, 0, 100, 24, FLOOR_TONE_SUBTLE)
            canvas.pointee.text(canvas, 0, 0, 50, "old", FLOOR_TEXT_STRIKE)
        }
        #expect(
            operations == [
                .fill(x: 0, y: 0, width: 100, height: 24, tone: FLOOR_TONE_SUBTLE),
                .text("old", x: 0, y: 0, maxWidth: 50, style: FLOOR_TEXT_STRIKE),
            ])
        #expect(operations.allSatisfy { $0.isInside(width: 100, height: 24) })
        #expect(
            !RecordingCanvas.Operation.fill(x: 0, y: 0, width: 101, height: 1, tone: 0).isInside(width: 100, height: 24)
        )
        #expect(DrawingText.line(operations[1]) == "text x 0 y 0 max_width 50 strike \"old\"")
    }
}
