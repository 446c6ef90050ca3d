import FloorCore
import FloorLayout
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Each rule of floor_abi.h a plugin can break is enforced or told, naming the plugin: the contract.c
/// fixture breaks one rule per build.
struct ContractEnforcementTests {
    /// contract.c built with `defines` into `folder`/plugins (plus the shipped Title plugin), and a host
    /// loaded from there in this process.
    private func host(_ defines: [String], in folder: TemporaryFolder, file: String = "libContract.so") throws
        -> FloorHost
    {
        let plugins = try folder.installShippedPlugins(["Title"])
        try compileCPlugin("contract.c", to: plugins + "/" + file, defines: defines)
        return try FloorHost(pluginFolder: plugins)
    }

    private func messages(_ diagnostics: [Diagnostic]) -> String { diagnostics.map(\.message).joined(separator: "\n") }

    @Test func decodeThatReportsAnErrorAndReturnsAModelLeavesTheFloorOut() throws {
        let folder = try TemporaryFolder("contract")
        let host = try host(["DECODE_ERROR_WITH_MODEL"], in: folder)
        let page = try folder.write(
            "page.json", #"{"floors":[{"type":"Title","id":"t","title":"T"},{"type":"Contract","id":"c","text":"hi"}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.describe(row: 1).type == "FloorPlaceholder")
        let all = messages(host.diagnostics(for: adapter))
        #expect(
            all.contains("floors[1].text (floor 'c'): this text is not acceptable (plugin com.floorkit.test.contract)"),
            "\(all)")
        #expect(
            all.contains(
                "floors[1] (floor 'c'): plugin com.floorkit.test.contract's decoder decodeContract: reported 1 error and still returned a model; a decoder returns NULL after report->error, so the model is destroyed (shown as a placeholder)"
            ), "\(all)")
    }

    @Test func registeringAfterInitIsRefusedWithAMessage() throws {
        let folder = try TemporaryFolder("contract")
        let host = try host(["LATE_REGISTRATION"], in: folder)
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        #expect(!host.registry.rowTypeNames.contains("LateRow"))
        let late = host.diagnostics(for: adapter).filter { $0.message.contains("register_row_type") }
        #expect(late.count == 1)
        #expect(late.first?.level == .error)
        #expect(late.first?.plugin == "com.floorkit.test.contract")
        #expect(
            late.first?.message.hasSuffix(
                "libContract.so: com.floorkit.test.contract: register_row_type ('LateRow') called after init returned; refused (types are registered only during init)"
            ) == true)
    }

    @Test func extendClaimingMoreUnchangedRowsThanExistIsMeasuredAgainAndSaid() throws {
        let folder = try TemporaryFolder("contract")
        let host = try host(["EXTEND_CLAIM=1000"], in: folder)
        try folder.write("page-2.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi","rows":3}]}"#)
        let page = try folder.write(
            "page.json", #"{"next":"page-2.json","floors":[{"type":"Contract","id":"c","text":"hi","rows":2}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        let next = try PageDecoder.decode(file: folder.file("page-2.json"), registry: host.registry)
        let edits = adapter.append(next)
        #expect(edits == [Adapter.Edit(at: 0, removed: 2, added: 5)], "the whole floor is replaced and measured")
        #expect(adapter.rowCount == 5)
        #expect(
            (0..<5).allSatisfy {
                adapter.describe(row: $0).height == 24 && adapter.describe(row: $0).y == Double($0) * 24
            })
        let all = messages(adapter.diagnostics)
        #expect(
            all.contains(
                "plugin com.floorkit.test.contract's extender extendContract: claimed 1000 leading and 0 trailing unchanged rows, but the floor had 2 rows and now has 5; every row of the floor is measured again"
            ), "\(all)")
    }

    @Test(arguments: [
        ("PARAM_BEFORE_JUMP", "param called before jump"),
        ("JUMP_NULL", "jump called with a NULL url"),
        ("JUMP_TWICE", "jump called more than once"),
    ])
    func actionSinkMisuseIsRefusedNamingThePlugin(define: String, misuse: String) throws {
        let folder = try TemporaryFolder("contract")
        let host = try host([define], in: folder)
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)
        let adapter = try host.layout(page: page, width: 375)
        let result = adapter.tap(section: 0, row: 0)
        guard case .failure(let none) = result else {
            Issue.record("\(define): the tap was accepted: \(result)")
            return
        }
        #expect(
            none.description.contains(
                "plugin com.floorkit.test.contract's action selector actionForContractRow: misused the action sink for item 0 of row 0:0 (ContractRow of floor 'c'): \(misuse)"
            ), "\(none)")
    }

    @Test func aCorrectActionStillWorks() throws {
        let folder = try TemporaryFolder("contract")
        let adapter = try host([], in: folder).layout(
            page: try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#), width: 375)
        let action = try adapter.tap(section: 0, row: 0).get()
        #expect(action.url == "floorkit://contract" && action.params == [.init(key: "k", value: "v")])
    }

    @Test func tappableCountPastTheBoundGivesNoItemsAndIsSaidOnce() throws {
        let folder = try TemporaryFolder("contract")
        let host = try host(["TAPPABLE_UINT64_MAX"], in: folder)
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi","rows":3}]}"#)
        for dispatch in [DispatchMode.typed, .ffi] {
            let adapter = try host.layout(page: page, width: 375, dispatch: dispatch)
            #expect(adapter.tappableCounts() == [0, 0, 0])
            #expect((0..<3).map { adapter.tappableItems(row: $0) } == [0, 0, 0])
            let said = adapter.diagnostics.filter { $0.message.contains("FLOOR_TAPPABLE_MAX") }
            #expect(said.count == 1, "once per row type")
            #expect(
                said.first?.message.contains(
                    "plugin com.floorkit.test.contract's tappable-items selector tappableItemsOfContractRow: returned 18446744073709551615 for row 0:0 ('ContractRow' of floor 'c'), more than FLOOR_TAPPABLE_MAX (4096)"
                ) == true)
        }
        let json = try floorhost(["--plugins", folder.file("plugins"), "--format", "json", page])
        #expect(!json.stdout.contains("9223372036854775807"))
    }

    /// A tap on such a row names the plugin's error, not "0 tappable items", in the library and in `--tap`.
    @Test func aTapOnARowWhosePluginAnsweredPastTheBoundNamesThePluginsError() throws {
        let folder = try TemporaryFolder("contract")
        let host = try host(["TAPPABLE_UINT64_MAX"], in: folder)
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)
        let error =
            "row 0:0 has no tappable items: the plugin's error: plugin com.floorkit.test.contract's tappable-items selector tappableItemsOfContractRow: returned 18446744073709551615 for row 0:0 ('ContractRow' of floor 'c'), more than FLOOR_TAPPABLE_MAX (4096)"
        for dispatch in [DispatchMode.typed, .ffi] {
            let adapter = try host.layout(page: page, width: 375, dispatch: dispatch)
            guard case .failure(let none) = adapter.tap(section: 0, row: 0) else {
                Issue.record("the tap found an action")
                continue
            }
            #expect(none.description.hasPrefix(error), "\(none)")
        }
        for isolation in [[], ["--no-plugin-isolation"]] {
            let tap = try floorhost(["--plugins", folder.file("plugins"), "--tap", "0:0"] + isolation + [page])
            #expect(tap.status == 1)
            #expect(tap.stderr.contains("no action: " + error), "\(isolation): \(tap.stderr)")
        }
    }

    // MARK: conform says what really happened

    private func conform(_ paths: [String], _ extra: [String] = []) throws -> [[String: Any]] {
        let result = try floorhost(["conform", "--format", "json"] + extra + paths)
        return try #require(try jsonObject(result.stdout)["plugins"] as? [[String: Any]])
    }

    private func result(_ plugin: [String: Any], _ check: String) -> (verdict: String, reason: String)? {
        ((plugin["checks"] as? [[String: Any]]) ?? []).first { $0["check"] as? String == check }
            .map { ($0["verdict"] as? String ?? "", $0["reason"] as? String ?? "") }
    }

    @Test func initThatGivesUpIsReportedWithTheRefusalThatMadeItGiveUp() throws {
        let folder = try TemporaryFolder("contract-conform")
        try compileCPlugin("contract.c", to: folder.file("libGivesUp.so"), defines: ["INIT_GIVES_UP_ON_REFUSAL"])
        let plugin = try conform([folder.file("libGivesUp.so")])[0]
        #expect(
            result(plugin, "registration")?.verdict == "pass", "the defect is the signature, judged by its own check")
        let signatures = try #require(result(plugin, "selector-signatures"))
        #expect(signatures.verdict == "fail")
        #expect(
            signatures.reason
                == "height calculator of row type 'WrongRow' 'heightForWrongRow:' has signature i(ppQd); expected d(ppQd); init returned false after the host refused the registration reported just before; none of its types are available",
            "\(signatures.reason)")
    }

    @Test func loggingDuringDecodeIsNotALeak() throws {
        let folder = try TemporaryFolder("contract-conform")
        try compileCPlugin("contract.c", to: folder.file("libLogs.so"), defines: ["LOG_IN_DECODE"])
        let plugin = try conform([folder.file("libLogs.so")])[0]
        #expect(
            result(plugin, "balanced-models")?.verdict == "pass", "\(result(plugin, "balanced-models") ?? ("", ""))")
        #expect(plugin["passed"] as? Bool == true)
    }

    @Test func manyQuickCallsPastTheCheckLimitAreNotAHang() throws {
        let folder = try TemporaryFolder("contract-conform")
        try compileCPlugin("contract.c", to: folder.file("libMany.so"), defines: [#"SAMPLE_ROWS="200000""#])
        let plugin = try conform([folder.file("libMany.so")], ["--timeout", "1"])[0]
        let heights = try #require(result(plugin, "heights"))
        #expect(heights.verdict == "skip")
        #expect(
            heights.reason.hasPrefix(
                "stopped after 1 s in heights (the time limit): did not finish within the check's limit of 1 s, though no call hung:"
            ), "\(heights.reason)")
        #expect(
            heights.reason.contains("calls returned, ")
                && heights.reason.contains("s of plugin time in all, the slowest (")
                && heights.reason.contains("(the per-call limit is 1 s)"), "\(heights.reason)")
        let timeLimit = try #require(result(plugin, "time-limit"))
        #expect(timeLimit.verdict == "pass", "\(timeLimit.reason)")
        #expect(!timeLimit.reason.contains("no answer"))
        // The summary says why the plugin did not finish, not only which checks.
        let text = try floorhost(["conform", folder.file("libMany.so"), "--timeout", "1"])
        #expect(
            text.stdout.contains("libMany.so (unfinished: heights, ")
                && text.stdout.contains(
                    "; stopped after 1 s in heights (the time limit))"),
            "\(text.stdout)")
    }
}
