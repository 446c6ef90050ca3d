import Foundation
import Testing

/// Adding a floor type needs no rebuild of the host: a plugin package made outside this repository,
/// depending only on the FloorKit SDK product, builds on its own, and the already-built floorhost binary
/// renders its floor.
struct OutOfTreePluginTests {
    static let source = #"""
        import FloorKit

        struct CouponStrip: FloorModel {
            static let floorType = "CouponStrip"
            static let rowTypes = [coupon]
            static let sampleJSON = #"{"type":"CouponStrip","id":"coupons","items":[{"id":"c1","amount":"¥20","rule":"满199可用"}]}"#

            struct Coupon: Decodable { var id: String; var amount: String; var rule: String }
            var items: [Coupon]

            func expand(into rows: inout FloorRows<CouponStrip>) {
                for item in items.indices { rows.append(Self.coupon, item: item) }
            }

            static let coupon = RowType<CouponStrip>(
                "CouponTicket",
                height: { _, _, _ in 48 },
                cell: { floor, item, canvas in
                    canvas.box(x: 0, y: 0, width: canvas.width, height: canvas.height)
                    canvas.text("\(floor.items[item].amount) 券 · \(floor.items[item].rule)", x: 12, y: 12, style: .accent)
                })
        }

        let plugin = FloorPlugin(id: "com.example.floor.coupon", name: "Coupon strip", version: "0.1.0",
                                 floors: [CouponStrip.self])

        @_cdecl("floor_plugin_entry")
        public func floorPluginEntry() -> UnsafeRawPointer { plugin.descriptor }
        """#

    static func manifest(sdk: String) -> String {
        let identity = URL(fileURLWithPath: sdk).lastPathComponent.lowercased()
        return """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "CouponFloor",
                products: [.library(name: "CouponFloor", type: .dynamic, targets: ["CouponFloor"])],
                dependencies: [.package(path: "\(sdk)")],
                targets: [.target(name: "CouponFloor", dependencies: [.product(name: "FloorKit", package: "\(identity)")])]
            )
            """
    }

    @Test(.timeLimit(.minutes(10)))
    func aNewFloorRendersWithTheAlreadyBuiltHost() throws {
        let binary = Repo.floorhostBinary
        let before = try FileManager.default.attributesOfItem(atPath: binary)

        let folder = try TemporaryFolder("coupon-floor")
        let package = folder.file("CouponFloor")
        try folder.write("CouponFloor/Package.swift", Self.manifest(sdk: Repo.root))
        try folder.write("CouponFloor/Sources/CouponFloor/CouponStrip.swift", Self.source)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/opt/swift/usr/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", package], environment: environment)
        try #require(build.status == 0, "the out-of-tree plugin did not build: \(build.stdout)\(build.stderr)")

        let plugins = try folder.installShippedPlugins(["Title"])
        try FileManager.default.copyItem(atPath: package + "/.build/debug/libCouponFloor.so", toPath: plugins + "/libCouponFloor.so")
        let page = try folder.write("page.json", #"{"floors":[{"type":"Title","id":"t","title":"领券中心"},{"type":"CouponStrip","id":"coupons","items":[{"id":"c1","amount":"¥20","rule":"满199可用"},{"id":"c2","amount":"¥5","rule":"No minimum"}]}]}"#)
        let result = try run(binary, ["--plugins", plugins, page])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("¥20 券 · 满199可用"))
        #expect(result.stdout.contains("¥5 券 · No minimum"))

        let after = try FileManager.default.attributesOfItem(atPath: binary)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date, "floorhost was rebuilt")
        #expect(after[.size] as? Int == before[.size] as? Int)
    }
}
