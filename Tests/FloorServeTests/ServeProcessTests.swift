import Foundation
import Testing

@testable import FloorServe

/// The real `floorhost serve` process (with its worker), on a loopback port.
@Suite(.serialized)
struct ServeProcessTests {
    /// A tab's open push stream does not hold the server up: SIGTERM ends the streams, the server and
    /// its worker, well before the deadline.
    @Test func sigtermStopsTheServerWithATabListening() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(arguments: [
            "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json",
            "--port", "0", fixture.pages,
        ])
        defer { server.stop() }
        // A tab: its page, its first view report, then its push stream, read until the server ends it.
        let tab = Process()
        tab.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tab.arguments = [
            "python3", "-c",
            """
            import http.client, re, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
            c.request("GET", "/page/home.json"); s = re.search(r'FLOOR_SESSION = "([^"]+)"', c.getresponse().read().decode()).group(1)
            c.request("POST", f"/api/sessions/{s}/view", '{"offset":0,"version":-1}'); c.getresponse().read()
            c.request("GET", f"/api/sessions/{s}/events"); r = c.getresponse()
            line = r.readline()
            while line and b"connected" not in line: line = r.readline()
            print(line.decode().strip(), flush=True)
            while r.readline(): pass
            print("ended", flush=True)
            """, String(server.url.split(separator: ":").last!.dropLast()),
        ]
        let out = Pipe()
        tab.standardOutput = out
        try tab.run()
        let connected = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var printed = ""
        DispatchQueue.global().async {
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += String(decoding: chunk, as: UTF8.self)
                if printed.contains(": connected") { connected.signal() }
            }
        }
        #expect(connected.wait(timeout: .now() + 30) == .success)
        let started = Date()
        server.process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while server.process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!server.process.isRunning, "floorhost serve did not stop within 10 s of SIGTERM")
        #expect(Date().timeIntervalSince(started) < 5)
        tab.waitUntilExit()
        #expect(printed.contains("ended"))
    }
}
