"""Measuring a command that leaves a process behind: floorhost's supervised rendering child, which its supervisor
does not wait for once the child has said it is finished (PageSupervisor). The measuring process becomes a
subreaper, so that such a process comes to it, and waits for it after the clock stops: its CPU time and peak memory
still count (RUSAGE_CHILDREN) and nothing is left running.

    from subreaper import become_subreaper, reap_orphans
"""
import ctypes, os

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Makes this process adopt the processes its commands leave behind."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_orphans():
    """Waits for every process left to this one; the sum of their CPU times (user + sys) in seconds."""
    seconds = 0.0
    while True:
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return seconds
        seconds += usage.ru_utime + usage.ru_stime
