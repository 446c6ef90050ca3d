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

/// What `floorhost serve` and its worker hold, read from /proc.
enum ProcessDescriptors {
    /// Descriptor number -> what it is open on (`socket:[123]`, `pipe:[45]`, a path).
    static func open(_ pid: pid_t) -> [Int: String] {
        let folder = "/proc/\(pid)/fd"
        var found: [Int: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            if let n = Int(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)
            {
                found[n] = target
            }
        }
        return found
    }

    /// The children of `pid` whose command line contains `word`.
    static func children(of pid: pid_t, named word: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let child = pid_t(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"),
                pid_t(stat[stat.index(close, offsetBy: 2)...].split(separator: " ")[1]) == pid,
                let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")),
                String(decoding: line, as: UTF8.self).contains(word)
            else { return nil }
            return child
        }
    }
}

extension ServeProcessTests {
    /// A worker started while clients are connected (a plugin changed) has stdin, stdout, stderr and its
    /// crash record from the server, and none of the server's sockets: not the listening one, not a client's.
    @Test func aReplacedWorkerHoldsNoneOfTheServersSockets() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        let port = server.port
        let pid = server.process.processIdentifier
        let first = try #require(
            eventually(seconds: 30) { ProcessDescriptors.children(of: pid, named: "serve-worker").first })
        // Clients connected while the worker is replaced: one idle, one half through its headers.
        let idle = try RawHTTP(port: port)
        let half = try RawHTTP(port: port)
        half.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let answered = try #require(
            try RawHTTP.exchange(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        #expect(answered.status == 200)
        try FileManager.default.removeItem(atPath: fixture.plugins + "/libFocusFloor.so")
        let worker = try #require(
            eventually(seconds: 30) {
                ProcessDescriptors.children(of: pid, named: "serve-worker").first { $0 != first }
            })
        let servers = Set(ProcessDescriptors.open(pid).values.filter { $0.hasPrefix("socket:") })
        #expect(servers.count >= 3, "the listening socket and two clients: \(servers)")
        let workers = ProcessDescriptors.open(worker)
        let inherited = workers.filter { servers.contains($0.value) }
        #expect(inherited.isEmpty, "the worker holds the server's sockets: \(inherited)")
        #expect(Set(workers.keys).isSuperset(of: [0, 1, 2, 3]))
        withExtendedLifetime((idle, half)) {}
    }

    /// SIGINT and SIGTERM stop serve with 128 + N, as every floorhost command exits on a signal.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalExitsWith128PlusItsNumber(signal: Int32) throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        kill(server.process.processIdentifier, signal)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 128 + signal)
    }

    /// A port in use says which and what to do; a missing ROOT names serve's argument, not --page-root.
    @Test func aBusyPortAndAMissingRootSayWhatToDo() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        let port = String(server.url.split(separator: ":").last!.dropLast())
        let busy = try runTool(
            ServeRepo.buildDirectory + "/floorhost",
            ["serve", "--plugins", fixture.plugins, "--port", port, fixture.pages])
        #expect(busy.status == 1)
        #expect(busy.output.contains("port \(port) on 127.0.0.1 is already in use"), "\(busy.output)")
        #expect(busy.output.contains("--port 0 picks a free one"))
        #expect(!busy.output.contains("errno"))
        let missing = try runTool(
            ServeRepo.buildDirectory + "/floorhost", ["serve", "--plugins", fixture.plugins, fixture.folder + "/nope"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("no such page root folder (serve's ROOT)"), "\(missing.output)")
        #expect(!missing.output.contains("--page-root"))
    }
}

extension ServeProcessTests {
    /// Under churn (tabs' event streams opened and dropped as fast as two threads can), SIGTERM still ends
    /// serve, with 143, and the churning clients see the server go.
    @Test func sigtermEndsServeUnderChurn() throws {
        let fixture = try ServeFixture()
        let server = try RunningServer(serving: fixture)
        defer { server.stop() }
        let port = server.port
        let page = try #require(
            try RawHTTP.exchange(
                port: port, "GET /page/home.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        let session = try #require(page.body.firstMatch(of: #/FLOOR_SESSION = "([^"]+)"/#)).output.1
        let stop = DispatchSemaphore(value: 0)
        let churned = DispatchGroup()
        nonisolated(unsafe) var opened = 0
        let lock = NSLock()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: churned) {
                // At most 20,000 connections a thread, and never past the server's end.
                for _ in 0..<20_000 {
                    guard let tab = try? RawHTTP(port: port, seconds: 5) else { return }
                    tab.send("GET /api/sessions/\(session)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    lock.withLock { opened += 1 }
                    if lock.withLock({ opened }) == 200 { stop.signal() }
                }
            }
        }
        #expect(stop.wait(timeout: .now() + 60) == .success, "200 event streams opened and dropped")
        kill(server.process.processIdentifier, SIGTERM)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.process.waitUntilExit()
            ended.signal()
        }
        #expect(ended.wait(timeout: .now() + 30) == .success, "serve did not end under churn")
        #expect(server.process.terminationStatus == 143)
        #expect(churned.wait(timeout: .now() + 60) == .success, "the churning clients saw the server go")
    }
}
