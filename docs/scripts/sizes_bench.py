"""Empty-board solve times of other board sizes, checked against the published results.

``python docs/scripts/sizes_bench.py [--sizes 4x4,5x4,...|small|large] [--threads N]``
runs ``c4tui solve --size WxH --stats`` on the empty board of each size, one process per
size (a process uses one size). ``small``: every size with W + H <= 12 (the default);
``large``: 6x7, 8x5, 5x8, 9x4, 4x9. Prints, per size, the score, the outcome it means
(1 first player wins, 2 second player, = draw, and the ply on which the game ends), the
published outcome (tests/data/empty_boards.txt), nodes and seconds of search (numba's
compilation, once per size, is not counted; the wall time of the process is shown too).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMALL = [f"{w}x{h}" for h in range(4, 9) for w in range(4, 13 - h)]
LARGE = ["6x7", "8x5", "5x8", "9x4", "4x9"]


def published() -> dict[str, tuple[str, str]]:
    table = {}
    for line in (ROOT / "tests" / "data" / "empty_boards.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            height, rest = line.split(":")
            who, plies = rest.split("|")
            for i, (w, p) in enumerate(zip(who.split(), plies.split(), strict=True)):
                table[f"{4 + i}x{height.strip()}"] = (w, p)
    return table


def outcome(score: int, width: int, height: int) -> tuple[str, str]:
    half = (width * height + 1) // 2
    if score > 0:
        return "1", str(2 * (half + 1 - score) - 1)
    if score < 0:
        return "2", str(2 * (half + 1 + score))
    return "=", str(width * height)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="small")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=None,
                    help="table MB (default: 16 up to 30 squares, else 256; a fresh table's "
                    "first touch costs seconds per 256 MB on this machine's VM)")
    args = ap.parse_args()
    sizes = {"small": SMALL, "large": LARGE}.get(args.sizes) or args.sizes.split(",")
    table = published()
    total = 0.0
    bad = 0
    print(f"{'size':>5} {'score':>5} {'result':>7} {'published':>9} {'nodes':>14} "
          f"{'search s':>9} {'wall s':>7} {'MB':>4}", flush=True)
    for size in sizes:
        w, h = (int(x) for x in size.split("x"))
        mb = args.hash or (16 if w * h <= 30 else 256)
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "c4tui", "solve", "--size", size, "--stats",
                              "-t", str(args.threads), "--hash", str(mb), ""],
                             capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        if out.returncode != 0:
            print(f"{size:>5} failed: {out.stderr.strip()[-300:]}", flush=True)
            bad += 1
            continue
        score, nodes, micros = (int(x) for x in out.stdout.split())
        got = outcome(score, w, h)
        want = table.get(size)
        ok = want is None or (got[0] == want[0] and want[1] in ("-", got[1]))
        bad += not ok
        total += micros / 1e6
        print(f"{size:>5} {score:>5} {' '.join(got):>7} {' '.join(want or ('?', '?')):>9} "
              f"{nodes:>14,} {micros / 1e6:>9.2f} {wall:>7.1f} {mb:>4}{'' if ok else '  WRONG'}",
              flush=True)
    print(f"total search time {total:.1f} s; {bad} wrong or failed", flush=True)


if __name__ == "__main__":
    main()
