#!/usr/bin/env python3
"""Reads what Scripts/bench measured and prints each figure next to its target.

  report.py RESULTS_DIR INPUTS_DIR

RESULTS_DIR holds package-benchmark's histogramPercentiles export (one TSV per benchmark and metric:
percentile 0..100 -> value) and hyperfine's JSON exports. Writes RESULTS_DIR/summary.json and
RESULTS_DIR/summary.md (the table BENCHMARKS.md quotes) and prints the table.
"""
import glob
import json
import os
import platform
import statistics
import sys

results, inputs = sys.argv[1], sys.argv[2]


def percentile(benchmark, metric_hint, p=50):
    """The p-th percentile of a package-benchmark result, or None when it was not run."""
    key = benchmark.replace(" ", "_").replace("/", "_")
    files = [f for f in glob.glob(os.path.join(results, "*.tsv")) if f".{key}." in os.path.basename(f)]
    files = [f for f in files if metric_hint.lower() in os.path.basename(f).lower()] or files
    if not files:
        return None
    with open(sorted(files)[0]) as f:
        for line in f:
            parts = line.strip().split("\t")
            if len(parts) == 2 and parts[0] == str(p):
                return float(parts[1])
    return None


def hyperfine(name):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {r["command"]: r for r in json.load(f)["results"]}


figures = []


def medians(a, b):
    """The medians of two hyperfine results and their ratio: beside a ratio of means, which a few slow runs
    (the host's slow state, BENCHMARKS.md) move more than they move the median."""
    return f"medians {a['median'] * 1000:.0f} vs {b['median'] * 1000:.0f} ms = {a['median'] / b['median']:.2f}x"

# Instruction shares of the end-to-end run (callgrind_annotate --inclusive=yes), by stage.
PROFILE_STAGES = [
    ("plugins' floor decoding (SDK decode thunk)", "FloorKit6ThunksO6decode"),
    ("plugins' validate (SDK thunk)", "FloorKit6ThunksO8validate"),
    ("page scanner", "PageScannerO4scanyAA0C4SpecVSW"),
    ("adapter (expand + heights)", "AdapterC4page8registry5width8dispatch"),
    ("JSON renderer", "JSONRendererO6render_"),
    ("  of which tappableItems", "AdapterC13tappableItems"),
]


def in_turn(file, a, b):
    """The medians of two commands taken in turn (runs_in_turn.py's --json) and their ratio, as a note; empty
    when the file or a name is missing."""
    path = os.path.join(results, file)
    if not os.path.exists(path):
        return ""
    runs = json.load(open(path))
    if a not in runs or b not in runs:
        return ""
    first, second = statistics.median(runs[a]["wall_ms"]), statistics.median(runs[b]["wall_ms"])
    # CPU of every process of the render: hyperfine's counts only what floorhost's own process waited for, and
    # its rendering child is not waited for once it has said it is finished (PageSupervisor).
    cpu = (f", CPU of all the render's processes {statistics.median(runs[a]['cpu_ms']):.0f} vs "
           f"{statistics.median(runs[b]['cpu_ms']):.0f} ms" if "cpu_ms" in runs[a] and "cpu_ms" in runs[b] else "")
    return (f"; taken in turn, {len(runs[a]['wall_ms'])} rounds: medians {first:.0f} vs {second:.0f} ms = "
            f"{first / second:.2f}x{cpu}")


def profile_note():
    path = os.path.join(results, "profile.txt")
    if not os.path.exists(path):
        return ""
    lines = [line for line in open(path, errors="replace") if "(" in line and not line.lstrip().startswith("=>")]
    total = next((float(l.split()[0].replace(",", "")) for l in lines if "PROGRAM TOTALS" in l), None)
    if not total:
        return ""
    shares = []
    for label, pattern in PROFILE_STAGES:
        hit = next((l for l in lines if pattern in l), None)
        if hit:
            shares.append(f"{label} {100 * float(hit.split()[0].replace(',', '')) / total:.1f}%")
    return f"; callgrind of the render (in-process), {total / 1e9:.2f} G instructions: " + ", ".join(shares)


def figure(name, measured, target, verdict, command, note=""):
    figures.append({"figure": name, "measured": measured, "target": target, "verdict": verdict,
                    "command": command, "note": note})


def verdict(ok):
    return "PASS" if ok else "MISS"


inprocess = "Scripts/bench (in-process: cd Benchmarks && swift package -Xswiftc -enable-testing benchmark)"
e2e = "Scripts/bench (hyperfine, whole processes)"

# 1. Per-row dispatch.
batch = 10000
rows = {}
for variant in ["seed dlsym per row", "Dictionary<String,fn> per row", "host typed", "old typed path", "host ffi",
                "ffi prepared", "direct call"]:
    value = percentile(f"dispatch {variant} ({batch} rows)", "wall")
    rows[variant] = value / batch if value is not None else None
seed = rows["seed dlsym per row"]
if seed is not None:
    detail = ", ".join(f"{k} {v:.1f} ns" for k, v in rows.items() if v is not None)
    malloc = percentile(f"malloc free 32 bytes ({batch} times)", "wall")
    if malloc is not None:
        detail += f"; one malloc+free in this process (interposed): {malloc / batch:.1f} ns"
    ffi_mallocs = percentile(f"dispatch host ffi ({batch} rows)", "malloc")
    # The verdict uses the paired ratio (seed and host path timed back to back in each iteration), when run.
    for variant, label, metric in [("host typed", "typed path", "seed_over_typed"), ("host ffi", "ffi path", "seed_over_ffi")]:
        per_row = rows[variant]
        separate = seed / per_row
        paired = percentile(f"dispatch ratios paired ({batch} rows)", metric)
        ratio = paired / 100 if paired is not None else separate
        quartiles = [percentile(f"dispatch ratios paired ({batch} rows)", metric, p) for p in (25, 75)]
        how = (f"paired ratio, median of back-to-back timings (quartiles {quartiles[0] / 100:.1f}-{quartiles[1] / 100:.1f}x); "
               f"separate medians: {per_row:.1f} vs {seed:.0f} ns = {separate:.1f}x") if paired is not None else "separate medians"
        if variant == "host typed":
            note = how + "; median of 10,000-row batches: " + detail
        else:
            note = how + (f"; mallocs per row: {ffi_mallocs / batch:g}" if ffi_mallocs is not None else "")
        figure(f"per-row dispatch, {label} (height + cell)", f"{per_row:.1f} ns/row; {ratio:.1f}x faster than dlsym per row",
               ">= 30x faster than the dlsym-per-row way", verdict(ratio >= 30), inprocess, note)
else:
    figure("per-row dispatch", "not run", ">= 30x faster than the dlsym-per-row way", "NOT RUN", inprocess)

# 2. Layout with heights cached.
cached = percentile("layout 1000000 rows cached", "wall")
if cached is not None:
    figure("layout of 1,000,000 rows, heights cached", f"{cached / 1e6:.1f} ms", "<= 50 ms", verdict(cached / 1e6 <= 50),
           inprocess, "Adapter.relayout() on a laid-out 1,000,000-row page: every offset from the height cache, no plugin called")

# 3. Cold layout of 1,000,000 rows.
cold = percentile("layout 1000000 rows cold typed", "wall")
cold_ffi = percentile("layout 1000000 rows cold ffi", "wall")
if cold is not None:
    figure("layout of 1,000,000 decoded rows, cold, trivial plugin", f"{cold / 1e6:.0f} ms"
           + (f" (ffi dispatch: {cold_ffi / 1e6:.0f} ms)" if cold_ffi else ""), "<= 1 s", verdict(cold / 1e6 <= 1000),
           inprocess, "Adapter(page:registry:width:) over 1,000 Bulk floors x 1,000 rows: expand + every height")

# 4. Appending a 20-row next page, from the same starting state at both sizes (HostBenchmarks.swift).
bases = ["1000000 rows", "1000000 rows in 1 floor", "1000 rows"]
def append_figures(state):
    return ([percentile(f"append 20 rows to {base}, {state}", "wall") for base in bases],
            [percentile(f"append 20 rows to {base}, {state}", "page_faults") for base in bases])


(big, one, small), (big_f, one_f, small_f) = append_figures("caches evicted")
if big is not None and small is not None:
    note = ("Adapter.append(next), one new 20-row floor, after 64 MB swept through the caches at both sizes; "
            "the 1,000,000-row page has 1,000 floors, the 1,000-row page 1")
    if one:
        note += f"; at 1,000,000 rows in 1 floor: {one / 1e3:.1f} us (ratio {one / small:.2f})"
    if big_f is not None:
        note += f"; minor page faults in the timed append: {big_f:.0f} / {one_f:.0f} / {small_f:.0f}"
    for state in ["after layout", "second append"]:
        (b, o, s_), _ = append_figures(state)
        if b is not None and s_:
            note += f"; {state}: {b / 1e3:.1f} us vs {s_ / 1e3:.1f} us = ratio {b / s_:.2f}" + (f" (1 floor: {o / 1e3:.1f} us)" if o else "")
    # The verdict uses the paired ratio (both appends back to back in each iteration), when run.
    paired = percentile("append 20 rows paired, caches evicted", "1000000_over")
    ratio = paired / 100 if paired is not None else big / small
    if paired is not None:
        quartiles = [percentile("append 20 rows paired, caches evicted", "1000000_over", p) / 100 for p in (25, 75)]
        measured = f"paired ratio {ratio:.2f} (quartiles {quartiles[0]:.2f}-{quartiles[1]:.2f}); separate medians {big / 1e3:.1f} us vs {small / 1e3:.1f} us = {big / small:.2f}"
    else:
        measured = f"{big / 1e3:.1f} us vs {small / 1e3:.1f} us = ratio {big / small:.2f}"
    figure("appending a 20-row next page at 1,000,000 rows vs at 1,000 rows", measured, "ratio <= 2", verdict(ratio <= 2),
           inprocess, note)

# 5. Loading 100 plugins.
load = percentile("load 100 plugins", "wall")
hf = hyperfine("load.json")
process_note = ""
if hf:
    delta = (hf["100 plugins"]["mean"] - hf["1 plugin"]["mean"]) * 1000
    process_note = f"whole process: floorhost with 100 plugins {hf['100 plugins']['mean'] * 1000:.1f} ms vs 1 plugin {hf['1 plugin']['mean'] * 1000:.1f} ms (+{delta:.1f} ms)"
if load is not None:
    figure("loading 100 plugins (discover, open, check, register)", f"{load / 1e6:.1f} ms", "<= 150 ms",
           verdict(load / 1e6 <= 150), inprocess, "PluginLoader.loadFolder over fresh copies of 100 trivial C plugins; " + process_note)
elif hf:
    figure("loading 100 plugins (discover, open, check, register)", f"+{delta:.1f} ms (whole process)", "<= 150 ms",
           verdict(delta <= 150), e2e, process_note)

# 6. End to end against jq.
hf = hyperfine("e2e.json")
if hf:
    host, jq = hf["floorhost"], hf["jq"]
    ratio = host["mean"] / jq["mean"]
    size = os.path.getsize(os.path.join(inputs, "feed.json"))
    with open(os.path.join(inputs, "feed.json"), encoding="utf-8") as f:
        products = sum(len(fl.get("items", [])) for fl in json.load(f)["floors"] if fl["type"] == "ProductFeed")
    figure(f"end to end: floorhost --format json, {size / 1e6:.1f} MB page, {products:,} products",
           f"{host['mean'] * 1000:.0f} ms vs jq {jq['mean'] * 1000:.0f} ms = {ratio:.2f}x jq", "<= 1.0x jq's wall time",
           verdict(ratio <= 1.0), e2e, "means of 20 runs each, same hyperfine run"
           + (f"; rendering in this process (--no-plugin-isolation, no supervising parent): {hf['floorhost in-process']['mean'] * 1000:.0f} ms"
              if "floorhost in-process" in hf else "") + profile_note())
    if "floorhost, 6,000 words" in hf and "jq, 6,000 words" in hf:
        words, words_jq = hf["floorhost, 6,000 words"], hf["jq, 6,000 words"]
        figure("end to end, the same size with titles of 6,000 distinct words (feed-words.json)",
               f"{words['mean'] * 1000:.0f} ms vs jq {words_jq['mean'] * 1000:.0f} ms = "
               f"{words['mean'] / words_jq['mean']:.2f}x jq", "<= 1.0x jq's wall time",
               verdict(words["mean"] <= words_jq["mean"]), e2e, "means of 20 runs each, same hyperfine run")

# 6b. Issue 23's targets on the same runs: a quarter of jq, six times simdjson's parse of the same bytes.
if hf:
    figure("issue 23: the 8 MB page, --format json, against jq", f"{ratio:.2f}x jq", "<= 0.25x jq",
           verdict(ratio <= 0.25), e2e,
           "the figure above, against issue 23's target" + in_turn("e2e-turns.json", "host", "jq"))
    # The targets hold on a page of >= 5,000 distinct words (its 32-word page flatters caches).
    if "floorhost, 6,000 words" in hf and "jq, 6,000 words" in hf:
        words_ratio = hf["floorhost, 6,000 words"]["mean"] / hf["jq, 6,000 words"]["mean"]
        figure("issue 23: the same on the 6,000-word page (feed-words.json)", f"{words_ratio:.2f}x jq",
               "<= 0.25x jq", verdict(words_ratio <= 0.25), e2e,
               "the figure above, against issue 23's target" + in_turn("e2e-turns.json", "host-words", "jq-words"))
    simdjson_file = os.path.join(results, "simdjson.tsv")
    if os.path.exists(simdjson_file) and "floorhost in-process" in hf:
        parsed = dict(line.strip().split("\t") for line in open(simdjson_file))
        inprocess_ms = hf["floorhost in-process"]["mean"] * 1000
        against = inprocess_ms / float(parsed["median"])
        figure("issue 23: the same in-process (--no-plugin-isolation) against simdjson's parse of its bytes",
               f"{inprocess_ms:.0f} ms vs {float(parsed['median']):.2f} ms = {against:.0f}x", "<= 6x",
               verdict(against <= 6), e2e,
               "simdjson: the median of 50 DOM parses of the bytes in memory (Benchmarks/Inputs/simdjson_parse.cpp, "
               "libsimdjson-dev); floorhost: a whole process, mean of 20 runs")

# 7. The text preview against json on the same page (issue 11).
hf = hyperfine("text.json")
if hf:
    text, json_render = hf["text"], hf["json"]
    ratio = text["mean"] / json_render["mean"]
    memory = {}
    memory_file = os.path.join(results, "text-memory.tsv")
    if os.path.exists(memory_file):
        for line in open(memory_file):
            name, value = line.split("\t")
            memory[name] = int(value)
    size = os.path.getsize(os.path.join(inputs, "feed.json"))
    note = (f"means of 20 runs each, same hyperfine run ({medians(text, json_render)})"
            + (f"; peak RSS text {memory['text'] / 1024:.0f} MB (output {memory['text-bytes'] / 1e6:.1f} MB) vs json {memory['json'] / 1024:.0f} MB"
               if {"text", "json", "text-bytes"} <= memory.keys() else ""))
    figure(f"text render of the {size / 1e6:.1f} MB page, every row drawn",
           f"{text['mean'] * 1000:.0f} ms vs json {json_render['mean'] * 1000:.0f} ms = {ratio:.2f}x json",
           "<= 2x the json render", verdict(ratio <= 2.0), e2e, note)
    figure("issue 23: the text preview of that page against its json", f"{ratio:.2f}x json", "<= 1.2x",
           verdict(ratio <= 1.2), e2e,
           "the figure above, against issue 23's target" + in_turn("text-turns.json", "text", "json"))
    if {"json", "empty"} <= memory.keys():
        above = (memory["json"] - memory["empty"]) * 1024
        figure("issue 23: peak memory of the json render above an empty page's (the largest process)",
               f"{memory['json'] / 1024:.0f} MB vs {memory['empty'] / 1024:.0f} MB: {above / 1e6:.0f} MB, "
               f"{above / size:.1f}x the page", "<= 2x the page's size", verdict(above <= 2 * size), e2e,
               "ru_maxrss of the render's processes (parent or child)")

hf = hyperfine("text-words.json")
if hf:
    text, json_render = hf["text"], hf["json"]
    ratio = text["mean"] / json_render["mean"]
    figure("issue 23: the same on the 6,000-word page (feed-words.json)",
           f"{text['mean'] * 1000:.0f} ms vs json {json_render['mean'] * 1000:.0f} ms = {ratio:.2f}x json", "<= 1.2x",
           verdict(ratio <= 1.2), e2e,
           f"means of 20 runs each, same hyperfine run ({medians(text, json_render)})"
           + in_turn("text-turns.json", "text-words", "json-words"))

# 8. Memory per row.
host_bytes = percentile("memory 1000000 rows", "host_bytes")
if host_bytes is not None:
    page_bytes = percentile("memory 1000000 rows", "page_bytes")
    adapter_bytes = percentile("memory 1000000 rows", "adapter_bytes")
    figure("host memory per row at 1,000,000 rows", f"{host_bytes / 1e6:.1f} bytes", "<= 128 bytes",
           verdict(host_bytes / 1e6 <= 128), inprocess,
           f"malloc in use (mallinfo2) after decode + layout minus before: page {page_bytes / 1e6:.1f} + adapter {adapter_bytes / 1e6:.1f} bytes/row")

# 9. The terminal view (issue 11): key to bytes written, and a resize to a width never laid out.
step = {p: percentile("view scroll step 80x40 (1000000 rows)", "wall", p) for p in (50, 99)}
if step[99] is not None:
    figure("view: one scroll step + redraw of an 80x40 screen, 1,000,000 rows", f"p50 {step[50] / 1e6:.2f} ms, p99 {step[99] / 1e6:.2f} ms",
           "p99 <= 16 ms", verdict(step[99] / 1e6 <= 16), inprocess,
           "PageViewer.handle(j) + TerminalFrame (styled) written to /dev/null; the drawing Bulk plugin (a title, a muted line, a price, a rule a row)")
resize = {p: percentile("view resize new width (10000 rows)", "wall", p) for p in (50, 99)}
if resize[50] is not None:
    figure("view: resize to a new width, 10,000 rows", f"p50 {resize[50] / 1e6:.1f} ms, p99 {resize[99] / 1e6:.1f} ms",
           "<= 50 ms", verdict(resize[99] / 1e6 <= 50), inprocess,
           "PageViewer.resize to one column wider than ever before (every height measured again) + the frame drawn")

# 10. Impression tracking per scroll step (issue 13).
overhead = percentile("impressions per scroll step 1000000 rows", "impression_overhead")
if overhead is not None:
    off = percentile("impressions per scroll step 1000000 rows", "without_impressions")
    on = percentile("impressions per scroll step 1000000 rows", "with_impressions")
    figure("impression tracking overhead per scroll step at 1,000,000 rows", f"{overhead / 1e3:.1f} us", "<= 1 ms",
           verdict(overhead <= 1e6), inprocess + " (Scripts/bench --only impressions runs it alone)",
           f"medians: a one-screen step {off / 1e3:.1f} us without impressions, {on / 1e3:.1f} us with (50 %, 500 ms; every row on screen counts, trivial plugin)")

with open(os.path.join(results, "summary.json"), "w") as f:
    json.dump({"machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count()},
               "figures": figures}, f, indent=2)

lines = ["| figure | measured | target | verdict |", "|---|---|---|---|"]
lines += [f"| {x['figure']} | {x['measured']} | {x['target']} | {x['verdict']} |" for x in figures]
with open(os.path.join(results, "summary.md"), "w") as f:
    f.write("\n".join(lines) + "\n\nNotes:\n" + "".join(f"- {x['figure']}: {x['note']}\n" for x in figures if x["note"]))

width = max(len(x["figure"]) for x in figures)
print()
for x in figures:
    print(f"{x['verdict']:8} {x['figure']:{width}}  {x['measured']}   (target {x['target']})")
    if x["note"]:
        print(f"{'':8} {'':{width}}  {x['note']}")
print(f"\nraw results: {results}")
