"""Run a program and write its peak resident memory (MB) to a file: the tests' measure.

    python peak_rss.py OUT PROGRAM [ARG...]

The program inherits the standard streams; this exits with its exit status. Measured
from here, not from the test process: Linux carries a process's peak over ``exec`` from
the memory it was forked with, so a child of a large pytest process would report pytest's
size; this launcher is small when it starts the program.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    out, argv = sys.argv[1], sys.argv[2:]
    pid = os.posix_spawnp(argv[0], argv, os.environ)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"{usage.ru_maxrss / 1024:.1f}\n")  # KiB on Linux
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
