"""``c4tui review``: whole-game analysis with the exact solver (c4tui/review.py).

Every position of the game is solved; each move is printed with the result before and
after it, and a mark where it changed the result (``??`` a win thrown away, ``?`` a draw
thrown away, ``!`` the only winning move), then a summary per side and the result of
perfect play from the start. ``--json`` prints the same as one JSON object.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from . import options
from .errors import FAILURE, fail
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from rich.progress import Progress


def review(
    game: Annotated[
        list[str],
        typer.Argument(help="A game file (.c4g, or a file of moves), or moves: 4453 or "
                       "d1 d2 e1 c1.", metavar="GAME", show_default=False),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as one JSON object.")
    ] = False,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: options.SOLVER_THREADS = None,
    size: SIZE_OPTION = None,
) -> None:
    """Review a game: the exact value of every move, its mistakes and the better moves."""
    from c4tui.review import Reviewer

    from .open import resolve_target
    from .solve import build_solver

    check_size(size, "review")
    hash_mb = options.hash_mb(hash_text)
    threads = options.threads(threads)
    try:
        target = resolve_target(game)  # a game file's main line (its variations: not)
    except ValueError as exc:  # GameFileError and IllegalMoveError: they say which move
        fail(f"review: {exc}")
    pos, headers = target.position, target.headers
    if not pos.history:
        fail("review: the empty board has no moves to review")
    try:
        solver = build_solver(hash_mb, book, threads)
    except (ValueError, OSError, MemoryError) as exc:  # e.g. a damaged book
        fail(f"review: {exc}", FAILURE)
    with _progress_bar(len(pos.history) + 1) as progress:
        result = Reviewer(solver).review(pos.history, progress)
    if as_json:
        print(json.dumps(review_json(result, headers), indent=1))
    else:
        sys.stdout.write(review_text(result, headers))


class _progress_bar:
    """A transient bar on stderr while the positions are solved (only at a terminal)."""

    def __init__(self, total: int) -> None:
        from rich.console import Console

        self._console = Console(stderr=True)
        self._total = total
        self._bar: Progress | None = None

    def __enter__(self):
        if not self._console.is_terminal:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        bar = self._bar = Progress("solving the game's positions", BarColumn(),
                                   MofNCompleteColumn(), TimeElapsedColumn(),
                                   console=self._console, transient=True)
        bar.start()
        task = bar.add_task("", total=self._total)

        def progress(done: int, total: int, ply: int, values) -> None:
            bar.update(task, completed=done, total=total)

        return progress

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


SUMMARY_MARKS = (("??", "blunder"), ("?", "mistake"), ("!", "only move"))


def review_text(result, headers: dict[str, str]) -> str:
    """The report: one line per move, the summary per side, the results."""
    from c4tui.engine.position import PLAYER_NAMES, Position
    from c4tui.engine.scores import result_words
    from c4tui.gamefile import result_of

    lines = []
    players = [headers.get(k, "") for k in ("White", "Black")]
    names = [name if name and name != "?" else PLAYER_NAMES[i]
             for i, name in enumerate(players)]
    if names != list(PLAYER_NAMES):
        lines.append(f"{names[0]} (White) - {names[1]} (Black)")
    lines.append(f"Perfect play from the start: {result_words(result.start, 0)}.")
    lines.append("")
    lines.append(f"{'move':>6} {'':<5} {'before':<16}   {'after':<16}  better")
    for m in result.plies:
        row = (f"{m.number:>6} {m.square() + m.mark:<5} {m.before_words():<16} → "
               f"{m.after_words():<16}")
        if m.better:
            row += f"  {m.better_words()}"
        lines.append(row.rstrip())
    lines.append("")
    for player in (0, 1):
        counts = ", ".join(f"{_plural(result.count(player, mark), word)} ({mark})"
                           for mark, word in SUMMARY_MARKS)
        lines.append(f"{PLAYER_NAMES[player]}: {counts}")
    final = Position.from_moves([c + 1 for c in result.moves])
    if final.is_over:
        won = "draw" if final.winner is None else f"{PLAYER_NAMES[final.winner]} won"
        lines.append(f"Game result: {result_of(final)} ({won}).")
    else:
        lines.append(f"Game unfinished after {len(result.moves)} moves: "
                     f"{result_words(result.end, final.ply)} with perfect play.")
    lines.append(f"Solved {len(result.moves) + (result.end is not None)} positions in "
                 f"{result.seconds:.1f} s ({result.nodes:,} nodes).")
    return "\n".join(lines) + "\n"


def review_json(result, headers: dict[str, str]) -> dict:
    """The review as plain JSON values (columns 1-7, like ``c4tui solve``)."""
    from c4tui.engine.position import PLAYER_NAMES, Position
    from c4tui.engine.scores import FULL_COLUMN, result_words
    from c4tui.gamefile import result_of

    final = Position.from_moves([c + 1 for c in result.moves])
    return {
        "moves": final.digits(),
        "headers": headers,
        "start": {"score": result.start, "result": result_words(result.start, 0)},
        "plies": [{
            "ply": m.ply + 1,
            "player": PLAYER_NAMES[m.player],
            "move": m.square(),
            "column": m.column + 1,
            "values": [FULL_COLUMN if v is None else v for v in m.values],
            "before": m.before,
            "after": m.after(),
            "before_result": m.before_words(),
            "after_result": m.after_words(),
            "mark": m.mark,
            "better": [{"move": m.square(c), "column": c + 1, "score": m.after(c),
                        "result": m.after_words(c)} for c in m.better],
        } for m in result.plies],
        "summary": {PLAYER_NAMES[p]: {word.replace(" ", "_") + "s": result.count(p, mark)
                                      for mark, word in SUMMARY_MARKS} for p in (0, 1)},
        "result": result_of(final),
        "end": None if result.end is None else {
            "score": result.end, "result": result_words(result.end, final.ply)},
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
    }


def register(app: typer.Typer) -> None:
    """Add ``review`` to the CLI."""
    app.command("review")(review)
