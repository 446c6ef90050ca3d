import FloorLayout

/// What a band of the text preview is drawn through (TextRenderer's drawing): the canvas its cells draw on,
/// and the drawing's own calls around them. Either the band's GridBackend, drawing into its grid at once, or
/// a CanvasRecorder, recording the same calls for a GridBackend to make later (CanvasRecording): the drawing
/// makes the same calls whichever it is given, and only GridBackend says what they draw.
protocol BandCanvas: CanvasBackend {
    /// The lines of the band's grid (as it will be when a recording is drawn).
    var lines: Int { get }
    /// Swaps what it draws into with the band's: the band's part is lent to it (its grid, or its recording),
    /// or, called again, given back. Nothing else of a band is touched.
    func exchange(with band: inout TextBand)
    /// The next cell is drawn from line `firstLine` and column `column` of the grid (its frame's top left).
    func startCell(firstLine: Int, column: Int)
    /// Later calls draw only inside `rect` (nil: the whole grid).
    func clip(to rect: TextGrid.Rect?)
    /// The grid made `lines` tall and blank (a row taller than a band, in an empty band).
    func reset(lines: Int)
    /// `marker` at the right of the first of the two lines from `firstLine` (a cell's) that is among the lines
    /// `shown` and has room for it, else on the second (a pinned header's "pinned").
    func marker(_ marker: String, firstLine: Int, shown: Range<Int>)
}
