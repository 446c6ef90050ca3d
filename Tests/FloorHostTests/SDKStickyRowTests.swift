import FloorSession
import Foundation
import Testing

/// The SDK's side of sticky rows: a Swift floor built against FloorKit (out of tree, as a plugin author
/// builds one) lists its second row with `rows.append(_:sticky: true)`; the host sees FLOOR_ROW_STICKY on
/// that row and pins it as it pins a sticky header, and the next floor's sticky header takes over.
struct SDKStickyRowTests {
    static let source = #"""
        import FloorKit

        /// A banner, then a sticky countdown strip, then `lines` lines.
        struct CountdownFloor: FloorModel {
            static let floorType = "SwiftCountdown"
            static let rowTypes = [banner, strip, line]
            static let sampleJSON = #"{"type":"SwiftCountdown","id":"c","lines":3}"#
            var lines: Int

            func expand(into rows: inout FloorRows<CountdownFloor>) {
                rows.append(Self.banner)
                rows.append(Self.strip, sticky: true)
                for l in 0..<lines { rows.append(Self.line, item: l) }
            }

            static let banner = RowType<CountdownFloor>("SwiftCountdownBanner", height: { _, _, _ in 100 },
                cell: { _, _, canvas in canvas.text("Swift sale banner", x: 8, y: 8, style: [.bold]) })
            static let strip = RowType<CountdownFloor>("SwiftCountdownStrip", height: { _, _, _ in 30 },
                cell: { _, _, canvas in canvas.text("Swift sale ends soon", x: 8, y: 0, style: [.bold]) })
            static let line = RowType<CountdownFloor>("SwiftCountdownLine", height: { _, _, _ in 50 },
                cell: { _, item, canvas in canvas.text("line \(item)", x: 8, y: 8) })
        }

        let plugin = FloorPlugin(id: "com.floorkit.test.swift-countdown", name: "Countdown (Swift)", version: "0.1.0",
                                 floors: [CountdownFloor.self])

        @_cdecl("floor_plugin_entry")
        public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
        """#

    @Test(.timeLimit(.minutes(10)))
    func anSDKFloorsStickyRowPinsAndHandsOver() throws {
        let folder = try TemporaryFolder("sdk-sticky")
        let package = folder.file("countdown")
        try FileManager.default.createDirectory(
            atPath: package + "/Sources/SwiftCountdown", withIntermediateDirectories: true)
        try folder.write(
            "countdown/Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "SwiftCountdown",
                products: [.library(name: "SwiftCountdown", type: .dynamic, targets: ["SwiftCountdown"])],
                dependencies: [.package(path: "\(Repo.path("SDK"))")],
                targets: [.target(name: "SwiftCountdown", dependencies: [.product(name: "FloorKit", package: "sdk")])]
            )
            """)
        try folder.write("countdown/Sources/SwiftCountdown/CountdownFloor.swift", Self.source)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/opt/swift/usr/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", package], environment: environment)
        try #require(build.status == 0, "\(build.stdout)\(build.stderr)")

        let plugins = try folder.installShippedPlugins(["ProductFeed"])
        try FileManager.default.copyItem(
            atPath: package + "/.build/debug/libSwiftCountdown.so", toPath: plugins + "/libSwiftCountdown.so")
        let items = (0..<20).map { #"{"id":"p\#($0)","title":"T\#($0)","price":"¥1","img":"i.jpg"}"# }
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"SwiftCountdown","id":"sale","lines":6},{"type":"ProductFeed","id":"feed","header":{"title":"Feed","sticky":true},"items":[\#(items.joined(separator: ","))]}]}"#
        )

        let json = try jsonObject(
            try floorhost([
                "--plugins", plugins, page, "--format", "json", "--viewport", "375x240", "--scroll-to", "200",
            ]).stdout)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows[1]["type"] as? String == "SwiftCountdownStrip" && rows[1]["sticky"] as? Bool == true)
        let viewport = try #require(json["viewport"] as? [String: Any])
        #expect(viewport["pinned"] as? String == "sale" && viewport["pinnedRow"] as? Int == 1, "\(viewport)")
        let text = try floorhost(["--plugins", plugins, page, "--viewport", "375x240", "--scroll-to", "200"]).stdout
        #expect(text.split(separator: "\n").first?.contains("Swift sale ends soon") == true, "\(text)")

        let later = try jsonObject(
            try floorhost([
                "--plugins", plugins, page, "--format", "json", "--viewport", "375x240", "--scroll-to", "500",
            ]).stdout)
        #expect(
            (later["viewport"] as? [String: Any])?["pinned"] as? String == "feed", "the feed's sticky header took over")
    }
}
