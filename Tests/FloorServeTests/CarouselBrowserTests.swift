import Foundation
import Testing

@testable import FloorServe

extension BrowserRuns {
    /// Carousels and item frames in a real browser (Tests/Browser/carousel_in_browser.py, headless chromium):
    /// arrows, dots, drags and swipes turn the Focus carousel through the session; a tap shows the banner's
    /// action and outlines its frame; impressions count per banner. The screenshot is left in the build folder
    /// as serve-carousel-test.png.
    @Suite struct CarouselBrowserTests {
        /// The server's start and the browser run block for seconds, so they run off the cooperative pool
        /// (offThePool): run on it, this test and TextAgreementTests' held both of its two threads for two minutes
        /// in a CI run, and WorkerPreviewTests' wait for a push ran out meanwhile.
        @Test func arrowsDotsDragsAndSwipesTurnTheCarouselAndATapHitsTheBannerShown() async throws {
            try #require(browserAvailable, "chromium, chromedriver or selenium is missing: run Scripts/setup --browser")
            let fixture = try ServeFixture()
            let server = try await offThePool { try RunningServer(serving: fixture) }
            defer { server.stop() }
            let screenshot = ServeRepo.buildDirectory + "/serve-carousel-test.png"
            let result = try await offThePool {
                try runTool(
                    "/usr/bin/env",
                    [
                        "python3", ServeRepo.root + "/Tests/Browser/carousel_in_browser.py", "--url",
                        server.url + "page/home.json", "--screenshot", screenshot,
                    ])
            }
            print(result.output)
            #expect(result.status == 0, "\(result.output)")
            #expect(FileManager.default.fileExists(atPath: screenshot))
        }
    }
}
