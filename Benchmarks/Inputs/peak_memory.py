#!/usr/bin/env python3
"""Peak memory of a command, the largest of its processes (ru_maxrss of RUSAGE_CHILDREN, KiB), those it leaves
behind included (subreaper.py):

    peak_memory.py NAME COMMAND [ARGUMENT ...]      prints NAME, a tab and the figure
"""
import resource, subprocess, sys

from subreaper import become_subreaper, reap_orphans

become_subreaper()
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, check=True)
reap_orphans()
print(sys.argv[1], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, sep="\t")
