#!/usr/bin/env python3
"""`floorhost serve` left running (issue 22): connection churn, idle half-open connections, and a soak.

    load_bench.py --floorhost BIN --plugins DIR --pages DIR [--only churn,halfopen,soak]
                  [--churn-rate 2000] [--churn-seconds 30] [--half-open 20000]
                  [--soak-tabs 8] [--soak-minutes 10] [--out FILE]

Each part starts its own release `floorhost serve` (with its worker) on a loopback port:

- churn: event-stream connections opened and closed at --churn-rate a second for --churn-seconds (each sends
  its request and reads the stream's first bytes, then closes); then 20 page requests, timed (target: the
  slowest <= 50 ms), the server's and worker's open descriptors against their count before (target: back to
  it), and SIGTERM sent while a second burst of churn runs (target: exit status 143 within 2 s).
- halfopen: --half-open connections that send part of a request's headers and nothing more, held by four
  client processes; while they are held, 20 page requests, timed (target: the slowest <= 100 ms); then they
  close, and the server's memory (glibc's allocated bytes and RSS, from /metrics) is compared with before
  (target: all but 10 % of what the held connections took is given back).
- soak: --soak-tabs tabs for --soak-minutes of mixed traffic, each as a browser tab would make it: the page
  (a session), its event stream, view reports at moving offsets, taps, retries, and now and then a reload
  (a fresh session and stream); every minute a plugin library is rebuilt (a new copy renamed over it, as a
  build does), which starts a fresh worker. Every 10 s the server's and the worker's allocated heap and RSS
  (/metrics) and open descriptors are sampled. Targets: no error; each minute's mean heap after the first
  within 10 % of the second minute's, for the server and the worker; descriptors do not grow (the last
  minute's mean at most 2 over the second minute's: connections come and go with the tabs).

Prints one line a part and writes everything to --out as JSON.
"""
import argparse, json, multiprocessing, os, random, re, resource, shutil, signal, socket, statistics, subprocess
import sys, threading, time, urllib.request


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server:
    """A `floorhost serve` child on a free loopback port."""

    def __init__(self, floorhost, plugins, pages):
        self.process = subprocess.Popen(
            [floorhost, "serve", "--plugins", plugins, "--port", "0", pages],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            sys.exit("load_bench: serve did not print its address: " + line + self.process.stderr.read())
        self.port = int(m.group(1))
        self.base = f"http://127.0.0.1:{self.port}/"
        # Drain what serve prints, so a full pipe never blocks it.
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=lambda s=stream: [None for _ in s], daemon=True).start()

    def worker_pid(self):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.process.pid:
                        return int(entry)
                except OSError:
                    pass
        return None

    def descriptors(self):
        def count(pid):
            try:
                return len(os.listdir(f"/proc/{pid}/fd")) if pid else 0
            except OSError:
                return 0
        return {"server": count(self.process.pid), "worker": count(self.worker_pid())}

    def metrics(self):
        with urllib.request.urlopen(self.base + "metrics", timeout=10) as r:
            text = r.read().decode()
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
        return values

    def memory(self):
        m = self.metrics()
        def pick(process, kind):
            for name, value in m.items():
                if name.startswith("floorkit_serve_memory_bytes") and f'process="{process}"' in name \
                        and f'kind="{kind}"' in name:
                    return value
            return None
        return {"serverHeap": pick("server", "heap"), "serverRSS": pick("server", "rss"),
                "workerHeap": pick("worker", "heap"), "workerRSS": pick("worker", "rss")}

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def session(base, page):
    """A tab's page request: the session id the page carries."""
    with urllib.request.urlopen(base + "page/" + page, timeout=10) as r:
        html = r.read().decode()
    return re.search(r'FLOOR_SESSION = "([^"]+)"', html).group(1)


def post(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status, r.read()


def timed_page_requests(base, page, n=20):
    times = []
    for _ in range(n):
        started = time.monotonic()
        with urllib.request.urlopen(base + "page/" + page, timeout=30) as r:
            r.read()
        times.append((time.monotonic() - started) * 1000)
    return {"p50": statistics.median(times), "max": max(times)}


def churn_burst(port, sid, rate, seconds, stop=None):
    """Opens and closes event-stream connections at `rate` a second; returns (opened, failed)."""
    request = (f"GET /api/sessions/{sid}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()
    opened = failed = 0
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def one_thread(share):
        nonlocal opened, failed
        interval = 1.0 / share
        next_at = time.monotonic()
        while time.monotonic() < deadline and not (stop and stop.is_set()):
            s = socket.socket()
            s.settimeout(5)
            ok = True
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(request)
                ok = s.recv(64).startswith(b"HTTP/1.1 200")
            except OSError:
                ok = False
            finally:
                s.close()
            with lock:
                opened += 1
                failed += 0 if ok else 1
            next_at += interval
            pause = next_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)  # pacing the load generator, not synchronisation
    threads = [threading.Thread(target=one_thread, args=(rate / 8,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return opened, failed


def wait_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return condition()


def churn(args, out):
    server = Server(args.floorhost, args.plugins, args.pages)
    try:
        sid = session(server.base, args.page)
        timed_page_requests(server.base, args.page, 5)
        # Warm: the session laid out and a stream opened once, so what the worker opens lazily is open.
        post(server.base, f"api/sessions/{sid}/view", {"offset": 0, "version": -1})
        churn_burst(server.port, sid, 100, 1)
        before = server.descriptors()
        started = time.monotonic()
        opened, failed = churn_burst(server.port, sid, args.churn_rate, args.churn_seconds)
        rate = opened / (time.monotonic() - started)
        after = wait_until(lambda: (lambda d: d if d["server"] <= before["server"] + 2 else None)(
            server.descriptors()), 15) or server.descriptors()
        page = timed_page_requests(server.base, args.page)
        # SIGTERM while a second burst runs.
        stop = threading.Event()
        burst = threading.Thread(target=churn_burst, args=(server.port, sid, args.churn_rate, 10, stop))
        burst.start()
        time.sleep(1)  # let the burst reach its rate before the signal (load shape, not synchronisation)
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            status = server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            status = None
        exit_seconds = time.monotonic() - signalled
        stop.set()
        burst.join()
    finally:
        server.stop()
    result = {"opened": opened, "failed": failed, "rate": rate, "descriptorsBefore": before,
              "descriptorsAfter": after, "page": page, "sigtermStatus": status, "sigtermSeconds": exit_seconds}
    ok = (page["max"] <= 50 and status == 143 and exit_seconds <= 2
          and after["server"] <= before["server"] + 2 and after["worker"] <= before["worker"] + 2)
    print(f"churn: {opened} event-stream connections in {args.churn_seconds} s ({rate:.0f}/s), {failed} failed; "
          f"then a page request p50 {page['p50']:.1f} ms, max {page['max']:.1f} ms (<= 50); descriptors "
          f"server {before['server']} -> {after['server']}, worker {before['worker']} -> {after['worker']}; "
          f"SIGTERM under churn: status {status} in {exit_seconds:.2f} s (143 within 2 s): "
          f"{'PASS' if ok else 'MISS'}", flush=True)
    out["churn"] = result


def hold_half_open(port, count, ready, release, opened_count):
    raise_descriptor_limit()
    partial = f"GET /page/home.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: half".encode()
    sockets = []
    for _ in range(count):
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(partial)
            sockets.append(s)
        except OSError:
            s.close()
    opened_count.value += len(sockets)
    ready.release()
    release.wait()
    for s in sockets:
        s.close()


def half_open(args, out):
    server = Server(args.floorhost, args.plugins, args.pages)
    try:
        timed_page_requests(server.base, args.page, 5)
        memory_before = server.memory()
        ready = multiprocessing.Semaphore(0)
        release = multiprocessing.Event()
        opened = multiprocessing.Value("i", 0)
        holders = [multiprocessing.Process(target=hold_half_open,
                                           args=(server.port, args.half_open // 4, ready, release, opened))
                   for _ in range(4)]
        for h in holders:
            h.start()
        for _ in holders:
            ready.acquire()
        held_descriptors = server.descriptors()
        page = timed_page_requests(server.base, args.page)
        memory_held = server.memory()
        release.set()
        for h in holders:
            h.join()
        server_fds = wait_until(lambda: (lambda d: d if d["server"] < 100 else None)(server.descriptors()), 20)
        memory_after = server.memory()
    finally:
        server.stop()
    heap_before, heap_after = memory_before["serverHeap"] or 0, memory_after["serverHeap"] or 0
    # Returned: what the held connections took is given back, all but 10 % of it.
    heap_held = memory_held["serverHeap"] or 0
    ok = page["max"] <= 100 and heap_after - heap_before <= 0.10 * max(0, heap_held - heap_before)
    print(f"half-open: {opened.value} connections sent part of their headers (server held "
          f"{held_descriptors['server']} descriptors); a page request meanwhile p50 {page['p50']:.1f} ms, max "
          f"{page['max']:.1f} ms (<= 100); server heap {heap_before / 1e6:.1f} MB before, "
          f"{(memory_held['serverHeap'] or 0) / 1e6:.1f} MB held, {heap_after / 1e6:.1f} MB after (RSS "
          f"{(memory_before['serverRSS'] or 0) / 1e6:.0f} / {(memory_held['serverRSS'] or 0) / 1e6:.0f} / "
          f"{(memory_after['serverRSS'] or 0) / 1e6:.0f} MB): {'PASS' if ok else 'MISS'}", flush=True)
    out["halfOpen"] = {"opened": opened.value, "heldDescriptors": held_descriptors, "page": page,
                       "memoryBefore": memory_before, "memoryHeld": memory_held, "memoryAfter": memory_after,
                       "descriptorsAfter": server_fds}


def tab(base, page, deadline, errors, counts, rng):
    """One browser tab's traffic until `deadline`."""
    def stream(sid, stop):
        try:
            with urllib.request.urlopen(base + f"api/sessions/{sid}/events", timeout=60) as r:
                while not stop.is_set():
                    if not r.readline():
                        break
        except OSError:
            pass

    def open_tab():
        sid = session(base, page)
        stop = threading.Event()
        t = threading.Thread(target=stream, args=(sid, stop), daemon=True)
        t.start()
        return sid, stop

    sid, stop = open_tab()
    version, offset = -1, 0
    while time.monotonic() < deadline:
        action = rng.random()
        try:
            if action < 0.80:
                offset = max(0, offset + rng.choice([-400, -120, 0, 120, 400, 900]))
                status, body = post(base, f"api/sessions/{sid}/view", {"offset": offset, "version": version})
                answer = json.loads(body)
                version = answer.get("version", version)
                if answer.get("height") and offset > answer["height"]:
                    offset = 0
                counts["view"] += 1
            elif action < 0.92:
                post(base, f"api/sessions/{sid}/tap", {"row": rng.randrange(0, 6), "x": 100, "y": 40})
                counts["tap"] += 1
            elif action < 0.97:
                post(base, f"api/sessions/{sid}/retry", {})
                counts["retry"] += 1
            else:
                stop.set()
                sid, stop = open_tab()
                version, offset = -1, 0
                counts["reload"] += 1
        except urllib.error.HTTPError as e:
            if e.code == 422:  # a tap on a row with no item there: the server's answer, not an error
                counts["tap"] += 1
            elif e.code == 404 and "expired" not in str(e.read()):
                # A session a fresh worker no longer knows is told to reload, as the tab does.
                sid, stop = open_tab()
                version, offset = -1, 0
                counts["reload"] += 1
            else:
                errors.append(f"{e.code} {e.reason}")
        except OSError as e:
            errors.append(str(e))
        time.sleep(0.05)  # a tab's pace: about 20 reports a second (load shape, not synchronisation)
    stop.set()


def soak(args, out):
    plugin_dir = os.path.join(os.path.dirname(os.path.abspath(args.out or ".")), "soak-plugins")
    shutil.rmtree(plugin_dir, ignore_errors=True)
    shutil.copytree(args.plugins, plugin_dir)
    os.chmod(plugin_dir, 0o755)
    server = Server(args.floorhost, plugin_dir, args.pages)
    errors, samples = [], []
    counts = {"view": 0, "tap": 0, "retry": 0, "reload": 0, "rebuild": 0}
    try:
        started = time.monotonic()
        deadline = started + args.soak_minutes * 60
        tabs = [threading.Thread(target=tab, args=(server.base, args.page, deadline, errors, counts,
                                                   random.Random(i))) for i in range(args.soak_tabs)]
        for t in tabs:
            t.start()
        rebuilt_at = started
        library = sorted(f for f in os.listdir(plugin_dir) if f.endswith(".so"))[0]
        while time.monotonic() < deadline:
            time.sleep(10)  # the sampling period
            now = time.monotonic()
            if now - rebuilt_at >= 60:
                fresh = os.path.join(plugin_dir, ".rebuilt-" + library)
                shutil.copy2(os.path.join(args.plugins, library), fresh)
                os.utime(fresh)
                os.rename(fresh, os.path.join(plugin_dir, library))
                counts["rebuild"] += 1
                rebuilt_at = now
            sample = {"t": round(now - started, 1), **server.memory(), **server.descriptors()}
            samples.append(sample)
        for t in tabs:
            t.join()
    finally:
        server.stop()
    # Flat: each minute's mean heap after the first within 10 % of the second minute's (means, since a
    # plugin rebuild every minute starts a fresh worker that replays the sessions over a few seconds).
    minutes = {}
    for sample in samples:
        if sample["t"] > 60:
            minutes.setdefault(int((sample["t"] - 0.001) // 60), []).append(sample)
    means = {m: {k: statistics.mean((x[k] or 0) for x in xs) for k in ("serverHeap", "workerHeap", "server")}
             for m, xs in sorted(minutes.items())}
    reference = means[min(means)] if means else {"serverHeap": 1, "workerHeap": 1, "server": 0}

    def spread(key):
        return max((abs(m[key] - reference[key]) / (reference[key] or 1) for m in means.values()), default=0)

    server_spread, worker_spread = spread("serverHeap"), spread("workerHeap")
    later = [x for xs in minutes.values() for x in xs]
    # Descriptors come and go with the tabs' connections: growth is the last minute's mean over the second's.
    fd_growth = (means[max(means)]["server"] - reference["server"]) if means else 0
    ok = not errors and server_spread <= 0.10 and worker_spread <= 0.10 and fd_growth <= 2
    print(f"soak: {args.soak_tabs} tabs, {args.soak_minutes:g} min: {counts['view']} views, {counts['tap']} taps, "
          f"{counts['retry']} retries, {counts['reload']} reloads, {counts['rebuild']} plugin rebuilds; "
          f"{len(errors)} errors; each minute's mean heap after the first within {server_spread * 100:.1f} % of "
          f"the second minute's for the server ({reference['serverHeap'] / 1e6:.1f} MB) and "
          f"{worker_spread * 100:.1f} % for the worker ({reference['workerHeap'] / 1e6:.1f} MB) (<= 10 %); "
          f"server descriptors after the first minute {min((x['server'] for x in later), default=0)}-"
          f"{max((x['server'] for x in later), default=0)}, the last minute's mean {fd_growth:+.1f} on the "
          f"second's (<= +2): {'PASS' if ok else 'MISS'}", flush=True)
    out["soak"] = {"counts": counts, "errors": errors[:20], "samples": samples}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--floorhost", required=True)
    p.add_argument("--plugins", required=True)
    p.add_argument("--pages", required=True)
    p.add_argument("--page", default="home.json")
    p.add_argument("--only", default="churn,halfopen,soak")
    p.add_argument("--churn-rate", type=int, default=2000)
    p.add_argument("--churn-seconds", type=int, default=30)
    p.add_argument("--half-open", type=int, default=20000)
    p.add_argument("--soak-tabs", type=int, default=8)
    p.add_argument("--soak-minutes", type=float, default=10)
    p.add_argument("--out")
    args = p.parse_args()
    raise_descriptor_limit()
    out = {}
    parts = args.only.split(",")
    if "churn" in parts:
        churn(args, out)
    if "halfopen" in parts:
        half_open(args, out)
    if "soak" in parts:
        soak(args, out)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
