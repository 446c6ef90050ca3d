#!/usr/bin/env python3
"""Interleaved A/B timing of two commands (two builds of floorhost on the same input):

    ab_compare.py "MAIN COMMAND" "BRANCH COMMAND" ROUNDS

Each round runs both commands once, in alternating order (two warm-up rounds first); prints the medians of
wall time and of CPU time (user + sys of the child and every process under it, which other work on a shared machine
disturbs less: a process the command leaves behind, floorhost's rendering child, comes to this one, a subreaper,
and is waited for after the clock stops: subreaper.py).
The first command is labelled main, the second schema (BENCHMARKS.md, "The page schema").
"""
import resource, statistics, subprocess, sys, time

from subreaper import become_subreaper, reap_orphans

become_subreaper()
# Interleaved A/B timing: each round runs every command once, in alternating order; wall and CPU (user+sys of the children).
cmds = {"main": sys.argv[1].split(), "schema": sys.argv[2].split()}
rounds = int(sys.argv[3])
wall = {k: [] for k in cmds}; cpu = {k: [] for k in cmds}
for r in range(rounds + 2):
    order = list(cmds) if r % 2 == 0 else list(reversed(cmds))
    for k in order:
        before = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.perf_counter()
        subprocess.run(cmds[k], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        t = time.perf_counter() - t
        reap_orphans()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r >= 2:
            wall[k].append(t); cpu[k].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
for k in cmds:
    print(f"{k}: wall median {statistics.median(wall[k])*1000:.0f} ms (min {min(wall[k])*1000:.0f}), cpu median {statistics.median(cpu[k])*1000:.0f} ms (min {min(cpu[k])*1000:.0f})")
print(f"schema/main: wall {statistics.median(wall['schema'])/statistics.median(wall['main']):.3f}, cpu {statistics.median(cpu['schema'])/statistics.median(cpu['main']):.3f}, cpu min {min(cpu['schema'])/min(cpu['main']):.3f}")
