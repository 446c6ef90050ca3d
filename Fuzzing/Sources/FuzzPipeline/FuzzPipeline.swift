// libFuzzer target `pipeline`: the whole page pipeline in one process with the shipped plugins, on arbitrary
// bytes as a page: scan and decode the page (each floor through its plugin), lay it out at a phone's width,
// scroll to the end (load-more follows `next` to the example pages: Examples/home-2.json, home-3.json, or a
// missing file, which is a failed load), tap the first row of every floor, and render text (whole page and
// viewport) and json, as `floorhost --no-plugin-isolation PAGE --scroll-to end [--format json]` does.
//
// The page is decoded as if it were a file in the examples folder ($FLOORKIT_FUZZ_EXAMPLES), so that a
// `next` of "home-2.json" continues into the real example pages. Beyond "no crash", the json output must be
// JSON the SDK's tape accepts.

import FuzzSupport
import Glibc

@testable import FloorKit
@testable import FloorLayout
@testable import FloorRender
@testable import FloorRuntime
@testable import FloorSession

nonisolated(unsafe) private var pageFile = ""

@_cdecl("LLVMFuzzerInitialize")
public func fuzzPipelineInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    _ = ShippedPlugins.host
    guard let examples = environment("FLOORKIT_FUZZ_EXAMPLES") else {
        fail("set FLOORKIT_FUZZ_EXAMPLES to the folder of the example pages (Scripts/fuzz does)")
    }
    // Not a file that exists: the input stands in for it.
    pageFile = "\(examples)/fuzz-input.json"
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let host = ShippedPlugins.host
    let page: Page
    do {
        page = try PageDecoder.decode(bytes: Array(bytes), file: pageFile, registry: host.registry)
    } catch {
        precondition(error.line != nil && error.column != nil, "a syntax error without line:column: \(error)")
        return 0
    }
    let adapter = Adapter(page: page, registry: host.registry, width: 375)
    // Impressions and screen prefetch on: their item ids come from the plugins' actions, on any page. One
    // retry, at once (base 0): a fuzzer must not sleep on a missing next page.
    let session = PageSession(
        adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry),
        retryPolicy: RetryPolicy(attempts: 1, base: 0),
        prefetch: Prefetch(rows: 4, screens: 1), impressions: .standard)
    session.scrollToEnd()
    session.settleImpressions()
    for section in adapter.sections.indices { _ = session.tap(section: section, row: 0) }
    _ = TextRenderer.render(adapter, columns: TextRenderer.defaultColumns)
    _ = TextRenderer.render(adapter, viewport: session.viewport, columns: TextRenderer.defaultColumns)
    let json = JSONRenderer.render(session, plugins: host.plugins, diagnostics: host.diagnostics(for: adapter))
    json.withUnsafeBytes { output in
        do throws(JSONTape.SyntaxError) {
            _ = try JSONTape(output)
        } catch {
            precondition(
                error.message.hasPrefix("nested deeper"),
                "the json output is not JSON: \(error.message) at byte \(error.offset)")
        }
    }
    return 0
}
