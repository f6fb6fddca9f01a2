"""The games database's speed: import rate, memory while importing, explorer lookups.

    .venv/bin/python docs/scripts/games_db_bench.py --games 1000000 --dir /tmp/gdb

1. writes ``--games`` random games (uniformly random legal moves until a four or a full
   board; seeded) to ``DIR/games.txt``, one digit line each;
2. imports the file into ``DIR/games.sqlite`` through ``c4tui db import``'s path
   (``c4tui.db.import_paths``) in a child process, timed, its peak RSS from ``resource``;
3. times ``c4tui.db.explore`` (the explorer's one lookup) on the positions of a sample of
   the games, every ply, and prints the median and p99.

The numbers go to docs/benchmarks.md ("Games database").
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from c4tui.engine.board.geometry import WIDTH, bottom_bit, top_bit
from c4tui.engine.board.position import MOVE_CHARS, Position, has_four


def random_game(rng: random.Random) -> str:
    """One game of random legal moves, as a digit string."""
    current = mask = 0
    out = []
    tops = [top_bit(c) for c in range(WIDTH)]
    bottoms = [bottom_bit(c) for c in range(WIDTH)]
    while True:
        legal = [c for c in range(WIDTH) if not mask & tops[c]]
        if not legal:
            return "".join(out)
        col = rng.choice(legal)
        out.append(MOVE_CHARS[col])
        new_mask = mask | (mask + bottoms[col])
        mover = current | (new_mask ^ mask)
        if has_four(mover):
            return "".join(out)
        current, mask = mover ^ new_mask, new_mask


def generate(path: Path, games: int, seed: int) -> float:
    """Write ``games`` random games to ``path``; returns the seconds taken."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with path.open("w") as f:
        for _ in range(games):
            f.write(random_game(rng) + "\n")
    return time.perf_counter() - t0


def import_child(db: Path, source: Path) -> None:
    """Run in the child process: the import, then its time and peak RSS on stdout."""
    from c4tui.db import connect, import_paths

    conn = connect(db, create=True)
    t0 = time.perf_counter()
    report = import_paths(conn, [source])
    seconds = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_SELF)
    cpu = use.ru_utime + use.ru_stime  # the import's own, whatever else the machine runs
    print(f"{report.read} {report.added} {seconds:.2f} {use.ru_maxrss} {cpu:.2f}")


def lookups(db: Path, source: Path, sample: int) -> list[float]:
    """Seconds per explorer lookup over every position of ``sample`` games of the file."""
    from c4tui.db import connect, explore

    conn = connect(db)
    lines = []
    with source.open() as f:
        for i, line in enumerate(f):
            if i % 97 == 0:
                lines.append(line.strip())
            if len(lines) >= sample:
                break
    times = []
    for line in lines:
        pos = Position()
        for ch in line:
            t0 = time.perf_counter()
            explore(conn, pos)
            times.append(time.perf_counter() - t0)
            pos.play(MOVE_CHARS.index(ch))
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/c4tui-games-bench"))
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--sample", type=int, default=200, help="games whose positions are looked up")
    ap.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        import_child(*args.child)
        return 0
    args.dir.mkdir(parents=True, exist_ok=True)
    source, db = args.dir / "games.txt", args.dir / "games.sqlite"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    gen = generate(source, args.games, args.seed)
    print(f"generated {args.games:,} random games in {gen:.1f} s "
          f"({source.stat().st_size / 1e6:.0f} MB)")
    out = subprocess.run([sys.executable, __file__, "--child", str(db), str(source)],
                         capture_output=True, text=True, check=True).stdout.split()
    read, added, seconds = int(out[0]), int(out[1]), float(out[2])
    rss, cpu = int(out[3]), float(out[4])
    print(f"imported {read:,} games ({added:,} new) in {seconds:.1f} s wall, {cpu:.1f} s CPU: "
          f"{read / seconds:,.0f} games/s wall, {read / cpu:,.0f} per CPU second; peak RSS "
          f"{rss / 1024:.0f} MB, database {db.stat().st_size / 1e6:.0f} MB")
    times = sorted(lookups(db, source, args.sample))
    p99 = times[int(len(times) * 0.99)]
    print(f"explorer lookups: {len(times):,} positions, median "
          f"{statistics.median(times) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, "
          f"max {times[-1] * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
