#!/usr/bin/env python3
"""A job killed as a whole (launcher and ranks, SIGKILL to the process
group) while a rank is still starting must leave nothing in /dev/shm.

    whole_kill.py MANYCOLL TEST_DEPARTURES

Rank 0 creates the job's shared memory, rank 1 sleeps before mc_init; the
group is killed then. The job's names all start with
manycoll-<uid>-j<launcher pid>-.
"""
import os
import signal
import subprocess
import sys
import time


def leftovers(prefix):
    return [n for n in os.listdir("/dev/shm") if n.startswith(prefix)]


def main():
    mc, dep = sys.argv[1], sys.argv[2]
    bad = 0
    for attempt in range(3):
        p = subprocess.Popen([mc, "run", "-n", "2", dep, "slow_start"],
                             start_new_session=True)
        prefix = f"manycoll-{os.geteuid()}-j{p.pid}-"
        time.sleep(0.5 + 0.25 * attempt)  # rank 0 has joined, 1 sleeps
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        time.sleep(0.2)
        left = leftovers(prefix)
        if left:
            print(f"FAIL: killed after {0.5 + 0.25 * attempt} s, left in "
                  f"/dev/shm: {left}")
            for n in left:
                os.unlink(os.path.join("/dev/shm", n))
            bad += 1
    if not bad:
        print("whole_kill.py: 3 jobs killed whole while starting, nothing "
              "left in /dev/shm")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
