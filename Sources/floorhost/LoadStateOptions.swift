import ArgumentParser
import FloorCommandLine
import FloorSession

/// When render and view load the next page (--load-more-distance, --prefetch) and whether they report
/// impressions (--impression): the options behind PageSession's Prefetch and ImpressionRule.
struct LoadStateOptions: ParsableArguments {
    @Option(
        name: .customLong("load-more-distance"),
        help: ArgumentHelp(
            "Start loading the next page when one of the last N rows is displayed (default 4; the same as --prefetch Nrows).",
            valueName: "N"))
    var loadMoreDistance: Int?

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Start loading the next page this far before the end: Nrows (one of the last N rows displayed) or Sscreens (at most S screens of content left below the screen: Texture's rule, whose default is 2screens). Given twice (rows and screens), or with --load-more-distance, the load starts at whichever is reached first.",
            valueName: "Nrows|Sscreens"),
        transform: { argument in try validated(Prefetch.Distance.parse, argument) })
    var prefetch: [Prefetch.Distance] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Report impressions (曝光): an item counts once it has been at least P % visible for at least D ms without a break, once per item; each names the floor, the item's id where the floor gives one, and the row. P% or Dms alone keep the other default (\(ImpressionRule.standard)).",
            discussion:
                "render: json 'events' of kind 'impression', on simulated time: each scroll stop is looked at for \(Int(ImpressionClock.standardStep)) ms, and the last screen one step more. view: the wall clock; the message line names each item as it counts.",
            valueName: "P%:Dms"),
        transform: { argument in try validated(ImpressionRule.parse, argument) })
    var impression: ImpressionRule?

    func validate() throws {
        if let loadMoreDistance, loadMoreDistance < 1 {
            throw ValidationError("--load-more-distance must be 1 or more (the last rows that trigger a load)")
        }
    }

    /// --prefetch and --load-more-distance together; the classic pull-up rule's last 4 rows when neither is given.
    var prefetchRule: Prefetch {
        Prefetch(prefetch + (loadMoreDistance.map { [.rows($0)] } ?? [])) ?? .standard
    }
}

/// `parse(argument)`, its error a ValidationError (what ArgumentParser prints with the usage).
func validated<Value>(_ parse: (String) throws -> Value, _ argument: String) throws -> Value {
    do { return try parse(argument) } catch { throw ValidationError("\(error)") }
}
