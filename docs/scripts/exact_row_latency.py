"""How long the app's exact row takes to show exact values after a move (issue 12's 100 ms).

Drives the real app under Textual's pilot (80x24, auto-analysis off so that only the exact
solver works): for every position of tests/data/positions.txt with DISCS - 1 discs, each
move into DISCS discs is played, and the time from the app's handling of the move to the
board being given the exact values of the new position is taken; then the move is taken
back.

    .venv/bin/python docs/scripts/exact_row_latency.py [--discs 12] [--limit 25] [--auto]
        [--threads N] [--think SECONDS] [--solver]

``--auto``: with the analysis search running too (the app's default); ``--threads``: the
exact solver's threads instead of the app's setting (every core); ``--think``: seconds the
"user" looks at the position before each move (0.05 by default), during which the exact
worker ponders the moves. ``--solver``: no app, the solver alone (the app's table size,
every core, its table cleared before each start position): ``Solver.analyze`` of each
position, with the slowest listed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from c4tui.engine.board.position import Position  # noqa: E402
from testdata import load_positions  # noqa: E402

from c4tui.app import C4App, SearchSettings  # noqa: E402
from c4tui.app.bridge.engine_view import EngineState, ExactStatus  # noqa: E402


async def measure(discs: int, limit: int, auto: bool = False,
                  think: float = 0.05) -> list[float]:
    starts = [r[0] for r in load_positions() if len(r[0]) == discs - 1][:limit]
    app = C4App(Position.from_moves(starts[0]), settings=SearchSettings(auto=auto))
    times: list[float] = []
    moved: list[float] = []  # when the app played the move
    shown: list[float] = []  # when the board was first drawn with its exact values

    def done() -> bool:
        e = app.bridge.view(app.position).exact
        return e is not None and e.status is ExactStatus.DONE

    import c4tui.app.main as app_main

    play, render = app.game_tree.play_column, app_main.render

    def timed_play(col: int) -> bool:
        moved.append(time.perf_counter())
        shown.clear()
        return play(col)

    def timed_render(screen, frame) -> None:  # noqa: ANN001 - render's own
        render(screen, frame)
        if not shown and done():
            shown.append(time.perf_counter())

    app.game_tree.play_column, app_main.render = timed_play, timed_render

    async with app.run_test(size=(80, 24)) as pilot:
        while app.bridge.view(app.position).state is not EngineState.READY or not done():
            await pilot.pause(0.05)
        for moves in starts:
            pos = Position.from_moves(moves)
            app.files.load_position(pos)
            for c in range(7):
                if not pos.can_play(c) or pos.is_winning_move(c):
                    continue
                await pilot.pause(think)
                await pilot.press(str(c + 1))
                while not shown:
                    await asyncio.sleep(0.05)  # the times come from render(), not this poll
                times.append(1000 * (shown[0] - moved[-1]))
                await pilot.press("u")
    return times


def solver_alone(discs: int, limit: int, threads: int | None) -> list[float]:
    """Milliseconds of ``Solver.analyze`` of each move into ``discs`` discs; prints the
    slowest five with their nodes."""
    import os

    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    from c4tui.app.bridge.settings import SOLVER_HASH_MB

    solver = Solver(SOLVER_HASH_MB, book=load_default(), threads=threads or os.cpu_count())
    solver.analyze(Position.from_moves("44"))  # load the kernels
    rows = []
    for moves in [r[0] for r in load_positions() if len(r[0]) == discs - 1][:limit]:
        pos = Position.from_moves(moves)
        solver.clear()
        solver.analyze(pos)
        for c in range(7):
            if not pos.can_play(c) or pos.is_winning_move(c):
                continue
            child = pos.copy()
            child.play(c)
            t0 = time.perf_counter()
            res = solver.analyze(child)
            rows.append((1000 * (time.perf_counter() - t0), res.nodes, child.digits()))
    for ms, nodes, digits in sorted(rows, reverse=True)[:5]:
        print(f"  {digits}: {ms:.1f} ms, {nodes:,} nodes")
    return [r[0] for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--discs", type=int, default=12)
    ap.add_argument("--limit", type=int, default=25, help="start positions")
    ap.add_argument("--auto", action="store_true", help="the analysis search runs too")
    ap.add_argument("--threads", type=int, help="the exact solver's threads")
    ap.add_argument("--think", type=float, default=0.05,
                    help="seconds before each move (the exact worker ponders meanwhile)")
    ap.add_argument("--solver", action="store_true", help="the solver alone, no app")
    args = ap.parse_args()
    if args.solver:
        times = sorted(solver_alone(args.discs, args.limit, args.threads))
    else:
        if args.threads:
            import c4tui.app.bridge.loader as loader

            loader.SOLVER_THREADS = args.threads
        times = sorted(asyncio.run(measure(args.discs, args.limit, args.auto, args.think)))
    n = len(times)
    print(f"{n} moves into {args.discs} discs: median {statistics.median(times):.1f} ms, "
          f"p95 {times[int(0.95 * (n - 1))]:.1f} ms, max {times[-1]:.1f} ms, "
          f"over 100 ms: {sum(t > 100 for t in times)}")


if __name__ == "__main__":
    main()
