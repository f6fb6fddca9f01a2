"""Memory soak of the workstation: auto-analysis while stepping through games, RSS sampled.

Runs the real app (``C4App``, default settings: auto-analysis on, the default node limit)
headless under Textual's pilot at 120x40, for ``--minutes``. Games are the longer
positions of ``tests/data/positions.txt`` (their move strings): each is entered through the
``e`` prompt, then walked from the first ply to the last with the ``down`` key, one ply
every ``--dwell`` seconds (each ply starts a new exact solve and analysis search), then
back up a few plies with ``up`` (``--skip N`` starts at the list's game N). A sampler
thread writes the process's resident set size (``VmRSS`` from ``/proc/self/status``)
every ``--every`` seconds to a CSV file::

    .venv/bin/python docs/scripts/soak.py --minutes 60 --out /tmp/c4tui-soak.csv

The CSV columns: ``elapsed_s, rss_kb, hwm_kb, threads, games, plies``. At the end a
summary line gives the RSS after the warm-up (the first sample past ``--warmup`` seconds),
at the end, the maximum, and the least-squares slope over the samples past the warm-up
(kB per minute). Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rss() -> tuple[int, int, int]:
    """(VmRSS kB, VmHWM kB, threads) of this process."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.split()[0] if value.split() else "0"
    return int(fields["VmRSS"]), int(fields["VmHWM"]), int(fields["Threads"])


def games(min_plies: int = 20) -> list[str]:
    """Move strings of the longer positions of the test data, in file order."""
    lines = (ROOT / "tests" / "data" / "positions.txt").read_text().splitlines()
    return [ln.split()[0] for ln in lines if len(ln.split()[0]) >= min_plies]


class Counters:
    """What the driver has done so far (read by the sampler)."""

    def __init__(self) -> None:
        self.games = 0
        self.plies = 0


def sample(out: Path, every: float, stop: threading.Event, counters: Counters,
           start: float) -> None:
    """Write one CSV row every ``every`` seconds until ``stop``."""
    with out.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["elapsed_s", "rss_kb", "hwm_kb", "threads", "games", "plies"])
        while True:
            r, hwm, threads = rss()
            w.writerow([round(time.monotonic() - start, 1), r, hwm, threads,
                        counters.games, counters.plies])
            fh.flush()
            if stop.wait(every):
                return


async def drive(minutes: float, dwell: float, counters: Counters, skip: int = 0) -> None:
    """Enter games and step through them with the app's keys until the time is up."""
    from textual.widgets import Input

    from c4tui.app import C4App

    app = C4App()
    end = time.monotonic() + 60 * minutes
    todo = games()
    async with app.run_test(size=(120, 40)) as pilot:
        i = skip
        while time.monotonic() < end:
            moves = todo[i % len(todo)]
            i += 1
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one(Input).value = moves
            await pilot.press("enter")
            await pilot.press("home")
            counters.games += 1
            for _ in range(len(moves)):
                await pilot.press("down")
                counters.plies += 1
                await asyncio.sleep(dwell)
                if time.monotonic() >= end:
                    break
            for _ in range(3):
                await pilot.press("up")
                counters.plies += 1
                await asyncio.sleep(dwell)
        await pilot.press("q")


def summary(out: Path, warmup: float) -> str:
    """One line: RSS after the warm-up, at the end, the maximum and the slope."""
    rows = list(csv.DictReader(out.open()))
    late = [(float(r["elapsed_s"]), int(r["rss_kb"])) for r in rows
            if float(r["elapsed_s"]) >= warmup]
    if len(late) < 2:
        return f"{len(rows)} samples: too short for a summary"
    n = len(late)
    mx = sum(t for t, _ in late) / n
    my = sum(v for _, v in late) / n
    slope = sum((t - mx) * (v - my) for t, v in late) / sum((t - mx) ** 2 for t, _ in late)
    last = rows[-1]
    return (f"{len(rows)} samples over {float(last['elapsed_s']) / 60:.1f} min, "
            f"{last['games']} games, {last['plies']} plies: RSS {late[0][1] / 1024:.1f} MiB "
            f"at {late[0][0]:.0f} s, {late[-1][1] / 1024:.1f} MiB at the end, max "
            f"{max(v for _, v in late) / 1024:.1f} MiB, slope {slope * 60:.1f} kB/min "
            f"after the warm-up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--dwell", type=float, default=2.0, help="seconds per ply")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=300.0,
                        help="seconds before the summary's samples start")
    parser.add_argument("--skip", type=int, default=0,
                        help="start at this game of the list (0: the first)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/c4tui-soak.csv"))
    args = parser.parse_args()
    counters = Counters()
    stop = threading.Event()
    start = time.monotonic()
    sampler = threading.Thread(target=sample, args=(args.out, args.every, stop, counters,
                                                     start), daemon=True)
    sampler.start()
    try:
        asyncio.run(drive(args.minutes, args.dwell, counters, args.skip))
    finally:
        stop.set()
        sampler.join()
    print(summary(args.out, args.warmup), flush=True)


if __name__ == "__main__":
    main()
