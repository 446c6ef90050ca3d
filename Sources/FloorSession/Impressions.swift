import CFloorABI
import FloorLayout
import HostContract

#if canImport(Glibc)
import Glibc
#endif

/// When an item counts as *exposed* (曝光, Epoxy's visibility tracker, DivKit's visibility actions): at
/// least `fraction` of it visible for at least `milliseconds`, without a break. `--impression 50%:500ms`.
public struct ImpressionRule: Sendable, Equatable, CustomStringConvertible {
    /// More than 0, at most 1.
    public let fraction: Double
    /// 0 or more.
    public let milliseconds: Double

    public init(fraction: Double, milliseconds: Double) {
        self.fraction = min(1, max(.leastNonzeroMagnitude, fraction))
        self.milliseconds = max(0, milliseconds)
    }

    /// Half of the item for half a second: DivKit's visibility action defaults (50 %, 800 ms) and the
    /// IAB's display rule (50 %, 1 s) are near it, and a half-second look is a look at a feed card.
    public static let standard = ImpressionRule(fraction: 0.5, milliseconds: 500)

    public var description: String { "\(Self.number(fraction * 100))%:\(Self.number(milliseconds))ms" }

    private static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }

    public static let form =
        "expected P%:Dms, P% or Dms (e.g. --impression 50%:500ms: at least half of an item visible for at least 500 ms), P from 1 to 100, D 0 or more"

    /// `P%:Dms`, `P%` or `Dms`; what is left out is the standard rule's.
    public static func parse(_ argument: String) throws(PrefetchFormError) -> ImpressionRule {
        var fraction = standard.fraction
        var milliseconds = standard.milliseconds
        let parts = argument.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { throw PrefetchFormError(message: form) }
        var seenPercent = false
        var seenTime = false
        for part in parts {
            if part.hasSuffix("%"), !seenPercent, let p = Double(part.dropLast()), p >= 1, p <= 100 {
                fraction = p / 100
                seenPercent = true
            } else if part.hasSuffix("ms"), !seenTime, let d = Double(part.dropLast(2)), d >= 0, d.isFinite {
                milliseconds = d
                seenTime = true
            } else if part.hasSuffix("s"), !part.hasSuffix("ms"), !seenTime, let d = Double(part.dropLast()), d >= 0,
                d.isFinite
            {
                milliseconds = d * 1000
                seenTime = true
            } else {
                throw PrefetchFormError(message: "'\(part)' is not a percentage or a duration; \(form)")
            }
        }
        return ImpressionRule(fraction: fraction, milliseconds: milliseconds)
    }
}

/// One exposed item (or row, where the row is the item), as the `impression` event carries it.
public struct Impression: Sendable, Equatable {
    /// The row as every output names it: global index, section:row, floor id, row type.
    public let row: Int
    public let section: Int
    public let sectionRow: Int
    public let floor: String
    public let type: String
    /// The tappable item of the row (Tap.swift), nil where the row is the item (a row with no tappable items).
    public let item: Int?
    /// The item's id where the floor exposes one (`itemID(row:item:)`), else nil.
    public let itemID: String?
    /// The row's visible fraction when it was last seen before it counted (0 to 1).
    public let fraction: Double
    /// How long it had been visible, without a break, when it counted (ms).
    public let visibleMilliseconds: Double
    /// When it counted, on the session's impression clock (ms).
    public let at: Double
}

/// The time impressions are measured on, in milliseconds.
public enum ImpressionClock: Sendable {
    /// The batch CLI's: each scroll stop is looked at for `step` ms (the viewport rests, then jumps); time
    /// moves only when the viewport does, and `PageSession.settleImpressions()` lets the last screen rest
    /// one more step. No wall clock is read, so output is the same on every run.
    case simulated(step: Double)
    /// The view's and the preview's: a monotonic wall clock (ms), or in tests any source they advance.
    case source(@Sendable () -> Double)

    /// A monotonic wall clock in milliseconds (CLOCK_MONOTONIC), for the view and the preview.
    public static var wall: ImpressionClock { .source(wallMilliseconds) }

    /// The wall clock's time now (ms, CLOCK_MONOTONIC): what a front end schedules its next look by.
    @Sendable public static func wallMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    /// The batch CLI's step: a second a screen, about as long as a person looks at a screen of a feed
    /// before scrolling on.
    public static let standardStep = 1000.0
}

/// Which items have been visible enough for how long, and which have counted: the state behind impression
/// events. Each observation costs O(rows on screen), never O(rows on the page): it looks up the visible
/// range (a binary search), walks it, and keeps at most the items on screen as candidates. An item counts
/// once per page view (per session); `exposed` grows with what was seen, not with the page.
///
/// An item is where its row's cell reported its frame (docs/ABI.md, "Item frames"): its visible fraction is
/// that of its frame's height, and an item without a frame on the drawn page is not shown (a banner on
/// another page of a carousel counts when a front end turns to it). A row that reports no frames keeps
/// 1.4's rule: its items share the row's visible fraction and count together. A pinned sticky header covers
/// the top of the screen: rows under it count as hidden there (its own row is its pinned part). The footer
/// is not content and never counts; nor does a row with no tappable items whose cell draws nothing (a
/// floor's margin).
public struct ImpressionTracker: Sendable {
    public let rule: ImpressionRule
    /// An item of a row on screen (page-wide row index), or the row itself (`item` nil: a row reporting no
    /// frames, whose items count together).
    package struct Candidate: Hashable, Sendable {
        package let row: Int
        package let item: Int?
    }
    /// Items at least `rule.fraction` visible since `start` (ms), with the fraction last seen.
    private var candidates: [Candidate: (start: Double, fraction: Double)] = [:]
    /// Items that counted, by section and row of the floor and item (-1: the row): stable while next pages
    /// append rows.
    private var exposed: Set<Exposed> = []

    private struct Exposed: Hashable {
        let section: UInt32
        let row: UInt32
        let item: Int
    }

    public init(rule: ImpressionRule) {
        self.rule = rule
    }

    /// Items that counted at this observation, in row and item order, each with its fraction and visible
    /// time; `item` nil where the row counted as a whole (it reports no frames).
    package struct Exposure {
        package let row: Int
        package let item: Int?
        package let fraction: Double
        package let milliseconds: Double
    }

    /// Looks at `viewport` at time `now`. A candidate that is no longer visible enough was visible until
    /// now: it counts when that was long enough.
    package mutating func observe(_ adapter: Adapter, in viewport: Viewport, at now: Double) -> [Exposure] {
        let visible = adapter.visibleRows(in: viewport)
        var counted: [Exposure] = []
        var seen: [Candidate: (start: Double, fraction: Double)] = [:]
        seen.reserveCapacity(visible.count)
        // The pinned sticky row (O(log n)) hides its height's worth of the screen below the top edge.
        var top = viewport.offset
        var pinned: Int?
        if let row = adapter.pinnedHeader(in: viewport)?.row {
            pinned = row
            top += adapter.row(row).height
        }
        let bottom = viewport.offset + viewport.height
        let footer = adapter.footerRow
        func look(_ candidate: Candidate, _ fraction: Double) {
            guard fraction >= rule.fraction, !exposed.contains(Self.key(candidate, adapter)) else { return }
            seen[candidate] = (candidates[candidate]?.start ?? now, fraction)
        }
        for r in visible where r != footer && r != pinned {
            let row = adapter.row(r)
            guard row.height > 0 else { continue }
            let frames = adapter.reportedFrames(row: r)
            guard !frames.isEmpty else {
                let shown = max(0, min(row.bottom, bottom) - max(row.top, top))
                look(Candidate(row: r, item: nil), min(1, shown / row.height))
                continue
            }
            for frame in frames {
                let frameTop = row.top + frame.y
                let shown = max(0, min(frameTop + frame.height, bottom) - max(frameTop, top))
                look(Candidate(row: r, item: frame.item), min(1, shown / frame.height))
            }
        }
        if let pinned {
            let frames = adapter.reportedFrames(row: pinned)
            if frames.isEmpty {
                look(Candidate(row: pinned, item: nil), 1)
            } else {
                for frame in frames { look(Candidate(row: pinned, item: frame.item), 1) }
            }
        }
        // Left the screen (or fell below the fraction, or its page was turned) now: visible from start
        // until now.
        for (c, candidate) in candidates where seen[c] == nil && now - candidate.start >= rule.milliseconds {
            counted.append(
                Exposure(row: c.row, item: c.item, fraction: candidate.fraction, milliseconds: now - candidate.start))
        }
        for (c, candidate) in seen where now - candidate.start >= rule.milliseconds {
            counted.append(
                Exposure(row: c.row, item: c.item, fraction: candidate.fraction, milliseconds: now - candidate.start))
            seen[c] = nil
        }
        for exposure in counted {
            exposed.insert(Self.key(Candidate(row: exposure.row, item: exposure.item), adapter))
        }
        candidates = seen
        counted.sort { ($0.row, $0.item ?? -1) < ($1.row, $1.item ?? -1) }
        return counted
    }

    /// Candidates renumbered through a next page's edits (rows an edit replaced start again).
    package mutating func remap(through edits: [Adapter.Edit]) {
        guard !candidates.isEmpty, !edits.isEmpty else { return }
        var moved = candidates
        for edit in edits {
            var next: [Candidate: (start: Double, fraction: Double)] = [:]
            for (c, value) in moved {
                if c.row < edit.at {
                    next[c] = value
                } else if c.row >= edit.at + edit.removed {
                    next[Candidate(row: c.row + edit.added - edit.removed, item: c.item)] = value
                }
            }
            moved = next
        }
        candidates = moved
    }

    /// When (ms) the earliest candidate counts if it stays visible; nil when there is none. O(items on screen).
    public var nextDue: Double? { candidates.values.map(\.start).min().map { $0 + rule.milliseconds } }

    private static func key(_ candidate: Candidate, _ adapter: Adapter) -> Exposed {
        let row = adapter.row(candidate.row)
        return Exposed(section: row.section, row: row.index, item: candidate.item ?? -1)
    }
}

/// A canvas that only notes whether a cell drew anything.
private final class InkDetector: CanvasBackend {
    var drew = false
    func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {
        if !text.isEmpty { drew = true }
    }
    func image(_ source: String, x: Double, y: Double, width: Double, height: Double) { drew = true }
    func box(x: Double, y: Double, width: Double, height: Double) { drew = true }
    func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {
        if width > 0 && height > 0 { drew = true }
    }
    func textBlock(_ drawing: TextBlockDrawing) {
        if drawing.block.lineCount > 0 { drew = true }
    }
}

extension Adapter {
    /// Whether row `r`'s cell draws anything: a row with no tappable items is its own item only when it
    /// does, so that a floor's margin (blank space) is never reported as seen. One cell call, made only
    /// when the row has just counted.
    package func drawsSomething(row r: Int) -> Bool {
        let ink = InkDetector()
        drawCell(row: r, into: ink)
        return ink.drew
    }

    /// The id of item `item` of row `r` where its floor exposes one. The ABI has no item-id selector, so
    /// this reads the item's action (Tap.swift): the first parameter named `id` or ending in `Id`, in the
    /// order the plugin gave them (the shipped floors give `productId`, `iconId`, `bannerId`). Nil when the
    /// item has no action or its action names no id.
    public func itemID(row r: Int, item: Int) -> String? {
        let info = describe(row: r)
        guard case .success(let action) = tap(section: info.section, row: info.row, item: item) else { return nil }
        return action.params.first { $0.key == "id" || $0.key.hasSuffix("Id") }?.value
    }
}

extension PageSession {
    /// The impression clock's time now (ms).
    package var impressionTime: Double {
        switch impressionClock {
        case .simulated: return simulatedTime
        case .source(let now): return now()
        }
    }

    /// The viewport is about to move: on the simulated clock, the screen it showed was looked at for one step.
    package func advanceSimulatedTime() {
        if case .simulated(let step) = impressionClock { simulatedTime += step }
    }

    /// After every change of the viewport or of the page: the footer says where loading stands, and
    /// impressions are observed.
    package func settled() {
        adapter.footer?.state = LoadStateFooter.state(for: nextPageStatus)
        observeImpressions()
        keepEventsWithinLimit()
    }

    /// Drops the oldest events once twice `eventLimit` are kept, down to the limit: O(1) amortised per
    /// event, and at most twice the limit in memory.
    package func keepEventsWithinLimit() {
        guard let limit = eventLimit, events.count > 2 * max(1, limit) else { return }
        let drop = events.count - limit
        events.removeFirst(drop)
        dropEvents(drop)
    }

    /// Looks at the screen now and appends an `impression` event for every item that counted. Sessions call
    /// it after each change; a front end on the wall clock also calls it while nothing changes (a row counts
    /// once it has been visible long enough, scrolled or not). O(rows on screen).
    public func observeImpressions() {
        guard var tracker = impressions else { return }
        let now = impressionTime
        let exposures = tracker.observe(adapter, in: viewport, at: now)
        impressions = tracker
        for exposure in exposures {
            let info = adapter.describe(row: exposure.row)
            // An item with a frame of its own counts alone; a row without frames counts all its items.
            let items = exposure.item == nil ? adapter.tappableItems(row: exposure.row) : 0
            func event(_ item: Int?) -> Event {
                .impression(
                    Impression(
                        row: exposure.row, section: info.section, sectionRow: info.row, floor: info.floor,
                        type: info.type, item: item,
                        itemID: item.flatMap { adapter.itemID(row: exposure.row, item: $0) },
                        fraction: exposure.fraction, visibleMilliseconds: exposure.milliseconds, at: now))
            }
            if let item = exposure.item {
                events.append(event(item))
            } else if items > 0 {
                for item in 0..<items { events.append(event(item)) }
            } else if adapter.drawsSomething(row: exposure.row) {
                events.append(event(nil))
            }
        }
    }

    /// The batch CLI's end: the last screen rests one more simulated step, then counts (on a wall clock,
    /// just an observation).
    public func settleImpressions() {
        advanceSimulatedTime()
        observeImpressions()
    }
}
