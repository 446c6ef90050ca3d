#!/usr/bin/env python3
"""The `floorhost serve` figures (Scripts/bench --only serve), against a release `floorhost serve` on a
loopback port, with its worker process (the default), on this machine:

  page      GET /page/home.json and GET /layout/home.json under wrk, 32 connections, 2 threads, 10 s:
            p50 / p99 latency (target p99 <= 20 ms)
  nextpage  a tab scrolled near the end of a chain of next pages: from the view report that starts the
            load to the answer that carries the new rows (report -> push "changed" -> report), p50 / p95
            over the chain (target p95 <= 50 ms)
  save      a page file saved (written and renamed over) -> the tab's push "reload" received: p50 / p95
            over 40 saves (target p95 <= 100 ms)
  plugin    a plugin library rebuilt (a new file renamed over it) -> push "reload" and a view answered by
            the fresh worker: max over 5 rebuilds (target <= 1 s)
  bigpage   a 40,000-row page (8 MB): view answers at 40 offsets spread over it, p50 / p95, and the answer
            size (the client draws only what an answer carries)

Prints one JSON object (results/serve.json) and a line per figure.
"""
import argparse, http.client, json, os, re, shutil, statistics, subprocess, sys, threading, time, queue


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class Server:
    def __init__(self, floorhost, plugins, pages, cache):
        self.process = subprocess.Popen([floorhost, "serve", "--plugins", plugins, "--plugin-cache", cache, "--port", "0", pages],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise SystemExit("serve did not start: " + line)
        self.port = int(m.group(1))

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Tab:
    """A browser tab, as the client script behaves: a session, its push stream, view reports."""

    def __init__(self, port, path):
        self.port = port
        c = http.client.HTTPConnection("127.0.0.1", port)
        c.request("GET", "/page/" + path)
        html = c.getresponse().read().decode()
        self.session = re.search(r'FLOOR_SESSION = "([^"]+)"', html).group(1)
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.version = -1
        self.pushes = queue.Queue()
        threading.Thread(target=self._listen, daemon=True).start()
        assert self.pushes.get(timeout=10) == "connected"
        self.view(0)  # the client script reports as soon as the page loads

    def _listen(self):
        c = http.client.HTTPConnection("127.0.0.1", self.port)
        c.request("GET", f"/api/sessions/{self.session}/events")
        r = c.getresponse()
        while True:
            line = r.fp.readline()
            if not line:
                return
            line = line.decode().strip()
            if line == ": connected":
                self.pushes.put("connected")
            elif line.startswith("data: "):
                self.pushes.put(line[6:])

    def view(self, offset):
        body = json.dumps({"offset": offset, "version": self.version})
        self.conn.request("POST", f"/api/sessions/{self.session}/view", body, {"content-type": "application/json"})
        raw = self.conn.getresponse().read()
        v = json.loads(raw)
        if "version" not in v:
            raise SystemExit(f"view answered {raw[:300]!r}")
        self.version = v["version"]
        return v, len(raw)

    def wait_for(self, message, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                if self.pushes.get(timeout=left) == message:
                    return True
            except queue.Empty:
                return False

    def drain(self):
        while not self.pushes.empty():
            self.pushes.get_nowait()


def wrk(url):
    out = subprocess.run(["wrk", "-t2", "-c32", "-d10s", "--latency", url], capture_output=True, text=True).stdout
    def ms(label):
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)", out, re.M)
        if not m:
            return None
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return {"p50_ms": ms("50"), "p99_ms": ms("99"), "requests_per_s": float(rps.group(1)) if rps else None, "raw": out}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--floorhost", required=True)
    p.add_argument("--plugins", required=True, help="the shipped plugins")
    p.add_argument("--pages", required=True, help="a folder with home.json (+ next pages), chain/page-0.json..., feed.json")
    p.add_argument("--chain-pages", type=int, required=True)
    p.add_argument("--results", required=True)
    args = p.parse_args()
    plugins = os.path.join(args.results, "serve-plugins")
    shutil.rmtree(plugins, ignore_errors=True)
    shutil.copytree(args.plugins, plugins)
    os.chmod(plugins, 0o755)
    server = Server(args.floorhost, plugins, args.pages, os.path.join(args.results, "serve-scan.json"))
    figures = {}
    try:
        base = f"http://127.0.0.1:{server.port}"
        figures["page"] = {k: wrk(base + "/page/home.json") for k in ["page"]}["page"]
        figures["layout"] = wrk(base + "/layout/home.json")

        tab = Tab(server.port, "chain/page-0.json")
        delivered = []
        for _ in range(args.chain_pages * 2):
            v, _ = tab.view(0)
            if v["load"]["state"] == "end":
                break
            tab.drain()
            start = time.perf_counter()
            v, _ = tab.view(max(0, v["height"] - 812))
            if v["load"]["state"] != "loading":
                continue
            rows_before = v["height"]
            if not tab.wait_for("changed"):
                break
            v, _ = tab.view(max(0, rows_before - 812))
            delivered.append((time.perf_counter() - start) * 1000)
        figures["nextpage"] = {"loads": len(delivered), "p50_ms": percentile(delivered, 50), "p95_ms": percentile(delivered, 95)}

        home = os.path.join(args.pages, "home.json")
        original = open(home, encoding="utf-8").read()
        tab = Tab(server.port, "home.json")
        saves = []
        for i in range(40):
            tab.drain()
            with open(home + ".tmp", "w", encoding="utf-8") as f:
                f.write(original.replace("限时秒杀", f"限时秒杀 {i}"))
            start = time.perf_counter()
            os.replace(home + ".tmp", home)
            if tab.wait_for("reload", 5):
                saves.append((time.perf_counter() - start) * 1000)
            tab.view(0)  # as the tab does on "reload": the session is laid out again
        with open(home, "w", encoding="utf-8") as f:
            f.write(original)
        figures["save"] = {"saves": len(saves), "p50_ms": percentile(saves, 50), "p95_ms": percentile(saves, 95)}

        library = os.path.join(plugins, "libTitleFloor.so")
        rebuilds = []
        for i in range(5):
            tab.wait_for("never", 0.3)  # let the previous worker settle; not a measurement
            tab.drain()
            shutil.copyfile(library, library + ".new")
            os.chmod(library + ".new", 0o755)
            start = time.perf_counter()
            os.replace(library + ".new", library)
            if tab.wait_for("reload", 5):
                tab.view(0)
                rebuilds.append((time.perf_counter() - start) * 1000)
        figures["plugin"] = {"rebuilds": len(rebuilds), "max_ms": max(rebuilds) if rebuilds else None,
                             "p50_ms": percentile(rebuilds, 50)}

        start = time.perf_counter()
        tab = Tab(server.port, "feed.json")
        opened = (time.perf_counter() - start) * 1000
        v, _ = tab.view(0)
        height = v["height"]
        answers, sizes = [], []
        for i in range(40):
            offset = height * i / 40
            start = time.perf_counter()
            _, size = tab.view(offset)
            answers.append((time.perf_counter() - start) * 1000)
            sizes.append(size)
        figures["bigpage"] = {"height": height, "open_ms": opened, "view_p50_ms": percentile(answers, 50),
                              "view_p95_ms": percentile(answers, 95), "answer_bytes_max": max(sizes)}
    finally:
        server.stop()
    for f in ("page", "layout"):
        figures[f].pop("raw", None)
    json.dump(figures, open(os.path.join(args.results, "serve.json"), "w"), indent=1)
    report(figures)


def report(f):
    def line(ok, name, measured, target):
        print(f"{'PASS' if ok else 'MISS':8} {name:52} {measured}   (target {target})")
    p, l = f["page"], f["layout"]
    line(p["p99_ms"] is not None and p["p99_ms"] <= 20, "serve: GET /page/home.json, 32 connections (p50 / p99)",
         f"{p['p50_ms']} / {p['p99_ms']} ms, {p['requests_per_s']} req/s", "p99 <= 20 ms")
    line(l["p99_ms"] is not None and l["p99_ms"] <= 20, "serve: GET /layout/home.json, 32 connections (p50 / p99)",
         f"{l['p50_ms']} / {l['p99_ms']} ms, {l['requests_per_s']} req/s", "p99 <= 20 ms")
    n = f["nextpage"]
    line(n["loads"] > 0 and n["p95_ms"] <= 50, "serve: scroll near end -> next page rows (p50 / p95)",
         f"{n['p50_ms']:.1f} / {n['p95_ms']:.1f} ms over {n['loads']} loads", "p95 <= 50 ms")
    v = f["save"]
    line(v["saves"] == 40 and v["p95_ms"] <= 100, "serve: page saved -> push (p50 / p95)",
         f"{v['p50_ms']:.1f} / {v['p95_ms']:.1f} ms over {v['saves']} saves", "p95 <= 100 ms")
    g = f["plugin"]
    line(g["rebuilds"] == 5 and g["max_ms"] <= 1000, "serve: rebuilt plugin -> page updated (max)",
         f"{g['max_ms']:.0f} ms (p50 {g['p50_ms']:.0f}) over {g['rebuilds']} rebuilds", "<= 1 s")
    b = f["bigpage"]
    line(b["view_p95_ms"] <= 16, "serve: 40,000-row page, view answer (p50 / p95)",
         f"{b['view_p50_ms']:.1f} / {b['view_p95_ms']:.1f} ms, <= {b['answer_bytes_max']} bytes; open {b['open_ms']:.0f} ms", "p95 <= 16 ms (a frame)")


if __name__ == "__main__":
    main()
