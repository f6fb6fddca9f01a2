"""``c4tui review``: whole-game analysis with the exact solver (c4tui/review/game.py).

Every position of the game is solved; each move is printed with the result before and
after it, its accuracy, and a mark where it changed the result (``??`` a win thrown away,
``?`` a draw thrown away), made it ``--inaccuracy N`` moves slower or missed a four
(``?!``), or was the only winning move (``!``); then each side's accuracy and marks and
the result of perfect play from the start. ``--json`` prints the same as one JSON object.
``c4tui review DIR --summary`` reviews a folder's games, per player (summary.py).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c4tui.bounded import shown
from c4tui.review.accuracy import accuracy_text
from c4tui.review.game import INACCURACY_MOVES, MARKS
from c4tui.units import plural

from .. import options
from ..errors import FAILURE, fail
from ..size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from rich.progress import Progress

    from c4tui.engine.solver.solver import Solver
    from c4tui.review.game import GameReview


def review(
    game: Annotated[
        list[str],
        typer.Argument(help="A game file (.c4g, or a file of moves), or moves: 4453 or "
                       "d1 d2 e1 c1.", metavar="GAME", show_default=False),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as one JSON object.")
    ] = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="GAME is a folder: review its games and "
                           "print per player the games, accuracy and marks.")
    ] = False,
    inaccuracy: options.INACCURACY = INACCURACY_MOVES,
    svg: Annotated[
        Path | None,
        typer.Option("--svg", metavar="OUT", show_default=False,
                     help="Also draw the evaluation graph with the marks as an SVG file.")
    ] = None,
    png: Annotated[
        Path | None,
        typer.Option("--png", metavar="OUT", show_default=False,
                     help="... or a PNG (needs matplotlib: pip install 'c4tui[pictures]').")
    ] = None,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: options.SOLVER_THREADS = None,
    size: SIZE_OPTION = None,
) -> None:
    """Review a game: the exact value of every move, its mistakes and the better moves,
    each side's accuracy; or a folder of games, per player (--summary)."""
    from c4tui.review.game import Reviewer

    from ..open import resolve_target
    from ..solve import build_solver

    check_size(size, "review")
    hash_mb = options.hash_mb(hash_text)
    threads = options.threads(threads)
    options.check_inaccuracy(inaccuracy)
    folder = Path(game[0]).expanduser() if len(game) == 1 and game[0].strip() else None
    pictures = _check_pictures(svg, png, summary or (folder is not None and folder.is_dir()))
    if summary or (folder is not None and folder.is_dir()):
        _summary(folder, as_json, summary, inaccuracy,
                 lambda: build_solver(hash_mb, book, threads))
        return
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
        result = Reviewer(solver, inaccuracy).review(pos.history, progress)
    if as_json:
        print(json.dumps(review_json(result, headers), indent=1))
    else:
        sys.stdout.write(review_text(result, headers))
    _write_pictures(pictures, result, headers)


def _check_pictures(svg: Path | None, png: Path | None, folder: bool) -> list[tuple[str, Path]]:
    """``--svg``/``--png``: checked before the game is solved (a review takes minutes), so
    that a folder, a missing matplotlib or a folder for OUT is one line at once."""
    pictures = [(kind, path.expanduser()) for kind, path in (("svg", svg), ("png", png))
                if path is not None]
    if pictures and folder:
        fail("review: --svg and --png draw one game's graph, not a folder's (--summary)")
    for kind, path in pictures:
        options.picture_path("review", f"--{kind}", str(path))
    if png is not None:
        from c4tui.review.graph import MissingMatplotlib, check_png

        try:
            check_png()
        except MissingMatplotlib as exc:
            fail(f"review: {exc}", FAILURE)
    return pictures


def _write_pictures(pictures: list[tuple[str, Path]], result: GameReview,
                    headers: dict[str, str]) -> None:
    """Write the evaluation graph to each file asked for, whole or not at all."""
    if not pictures:
        return
    from c4tui.atomicfile import atomic_write
    from c4tui.review.graph import review_png, review_svg

    for kind, path in pictures:
        data = review_svg(result, headers).encode() if kind == "svg" else \
            review_png(result, headers)
        try:
            atomic_write(path, data, overwrite=True)
        except OSError as exc:
            fail(f"review: --{kind} {shown(str(path))}: {exc.strerror or exc}", FAILURE)


def _summary(folder: Path | None, as_json: bool, summary: bool, inaccuracy: int,
             solver: Callable[[], Solver]) -> None:
    """``review DIR --summary``: the folder's games, per player; exit 130 on Ctrl-C."""
    from c4tui.gamelist import game_paths

    from .summary import leave, review_folder, summary_json, summary_text

    if folder is None or not folder.is_dir():
        fail("review: --summary takes one folder of games")
    if not summary:
        fail(f"review: {folder} is a folder: --summary reviews its games")
    paths = game_paths(folder)
    if not paths:
        fail(f"review: {folder}: no game files (.c4g, .txt) in it")
    try:
        built = solver()
    except (ValueError, OSError, MemoryError) as exc:  # e.g. a damaged book
        fail(f"review: {exc}", FAILURE)
    result, running = review_folder(paths, built, inaccuracy)
    if as_json:
        print(json.dumps(summary_json(result), indent=1))
    else:
        sys.stdout.write(summary_text(result))
    if result.interrupted:
        if running:
            leave(130)
        raise typer.Exit(130)


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


def _accuracy(result: GameReview, player: int) -> float | None:
    acc = result.accuracy(player)
    return None if acc is None else round(acc, 1)


def review_text(result: GameReview, headers: dict[str, str]) -> str:
    """The report: one line per move, the summary per side, the results."""
    from c4tui.engine.board.position import PLAYER_NAMES, Position
    from c4tui.engine.scores import result_words
    from c4tui.gamefile import result_of

    lines = []
    players = [shown(headers.get(k, "")) for k in ("White", "Black")]  # the file's text
    names = [name if name and name != "?" else PLAYER_NAMES[i]
             for i, name in enumerate(players)]
    if names != list(PLAYER_NAMES):
        lines.append(f"{names[0]} (White) - {names[1]} (Black)")
    lines.append(f"Perfect play from the start: {result_words(result.start, 0)}.")
    lines.append("")
    lines.append(f"{'move':>6} {'':<5} {'before':<16}   {'after':<16} {'acc':>4}  better")
    for m in result.plies:
        row = (f"{m.number:>6} {m.square() + m.mark:<5} {m.before_words():<16} → "
               f"{m.after_words():<16} {m.accuracy:>3.0f}%")
        if m.better:
            row += f"  {m.better_words()}"
        lines.append(row.rstrip())
    lines.append("")
    for player in (0, 1):
        acc = accuracy_text(result.accuracy(player), 1)
        counts = ", ".join(f"{plural(result.count(player, mark), one, many)} ({mark})"
                           for mark, one, many in MARKS)
        lines.append(f"{PLAYER_NAMES[player]}: accuracy {acc}, {counts}")
    lines.append(f"(?! a result kept but {result.inaccuracy}+ moves slower, or a four "
                 "missed; accuracy: docs/user-guide.md)")
    final = Position.from_moves([c + 1 for c in result.moves])
    if final.is_over:
        won = "draw" if final.winner is None else f"{PLAYER_NAMES[final.winner]} won"
        lines.append(f"Game result: {result_of(final)} ({won}).")
    else:
        assert result.end is not None  # the last position is not over: it was solved
        lines.append(f"Game unfinished after {len(result.moves)} moves: "
                     f"{result_words(result.end, final.ply)} with perfect play.")
    lines.append(f"Solved {len(result.moves) + (result.end is not None)} positions in "
                 f"{result.seconds:.1f} s ({result.nodes:,} nodes).")
    return "\n".join(lines) + "\n"


def review_json(result: GameReview, headers: dict[str, str]) -> dict:
    """The review as plain JSON values (columns 1-7, like ``c4tui solve``)."""
    from c4tui.engine.board.position import PLAYER_NAMES, Position
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
            "accuracy": round(m.accuracy, 1),
            "better": [{"move": m.square(c), "column": c + 1, "score": m.after(c),
                        "result": m.after_words(c)} for c in m.better],
        } for m in result.plies],
        "inaccuracy_moves": result.inaccuracy,
        "summary": {PLAYER_NAMES[p]: {
            "accuracy": _accuracy(result, p),
            **{many.replace(" ", "_"): result.count(p, mark) for mark, _, many in MARKS},
        } for p in (0, 1)},
        "result": result_of(final),
        "end": None if result.end is None else {
            "score": result.end, "result": result_words(result.end, final.ply)},
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
    }


def register(app: typer.Typer) -> None:
    """Add ``review`` to the CLI."""
    app.command("review")(review)
