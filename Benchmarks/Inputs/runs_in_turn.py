#!/usr/bin/env python3
"""Commands timed in turn, each round running every command once (two warm-up rounds first):

    runs_in_turn.py [--json FILE] ROUNDS NAME=COMMAND [NAME=COMMAND ...]    (GAP=SECONDS in the environment:
                                                                             a pause before each run)

For each command: min, p10, median and mean wall time (fork, exec and wait, timed here) and the median CPU
time of the child and every process under it (user + sys); with --json, every run's wall and CPU time in ms, by
name, to FILE. The wall time ends when the command's own process does; a process it leaves behind (floorhost's
supervised child, which its supervisor does not wait for once it has said it is finished: PageSupervisor) comes
to this one (a subreaper: subreaper.py) and is waited for after the clock stops, so its CPU time is still counted. Taken in
turn, two commands' ratio is not moved by the host changing speed between them, as it is when one command's
runs all come before the other's (hyperfine). A command's environment is set with env(1) ("main=/usr/bin/env X=1 ./floorhost
..."). With a gap of a few seconds each run starts as a person's single run does, in memory the host may have
taken back meanwhile (BENCHMARKS.md, issue 23, "Output held once a line").
"""
import json, os, statistics, sys, time

from subreaper import become_subreaper, reap_orphans

become_subreaper()

arguments = sys.argv[1:]
export = None
if arguments[:1] == ["--json"]:
    export, arguments = arguments[1], arguments[2:]
rounds = int(arguments[0])
commands = [argument.split("=", 1) for argument in arguments[1:]]
gap = float(os.environ.get("GAP", "0"))
wall = {name: [] for name, _ in commands}
cpu = {name: [] for name, _ in commands}
null = os.open("/dev/null", os.O_WRONLY)
for round in range(rounds + 2):
    for name, command in commands:
        argv = command.split()
        time.sleep(gap)
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.execv(argv[0], argv)
        _, status, usage = os.wait4(pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
        orphans = reap_orphans()
        if round >= 2:
            wall[name].append(elapsed)
            cpu[name].append((usage.ru_utime + usage.ru_stime + orphans) * 1000)
for name, _ in commands:
    runs = sorted(wall[name])
    print(f"{name:<16} min {runs[0]:6.1f}  p10 {runs[len(runs) // 10]:6.1f}  median {statistics.median(runs):6.1f}"
          f"  mean {statistics.mean(runs):6.1f} ms   CPU median {statistics.median(cpu[name]):6.1f} ms")
if export:
    with open(export, "w") as out:
        json.dump({name: {"wall_ms": wall[name], "cpu_ms": cpu[name]} for name, _ in commands}, out)
