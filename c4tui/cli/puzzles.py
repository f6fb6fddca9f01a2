"""``c4tui puzzles``: build, list and verify puzzle sets (c4tui/puzzles/).

``build`` looks in game files or seeded self-play for positions where exactly one move
keeps the win (or the draw), certified by the exact solver, and writes them (atomically;
Ctrl-C writes what was found) to a puzzle file; ``list`` prints one puzzle per line,
``<moves> <the keeping column> <difficulty>``, for scripts and other solvers;
``verify`` re-solves every puzzle and exits 1 if one has not exactly one keeping move.
Without a FILE, ``list`` and ``verify`` read the shipped starter set.
"""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c4tui.bounded import shown

from . import options
from .errors import FAILURE, bad_value, check_range, fail
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.engine.solver.solver import Solver
    from c4tui.puzzles.builder import Found
    from c4tui.puzzles.puzzlefile import PuzzleFile

DEFAULT_MAX = 300  #: the most puzzles ``build`` writes unless told
MAX_GAMES = 1_000_000

puzzles_app = typer.Typer(
    help="Puzzles: positions where exactly one move keeps the win (or the draw).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FILE_ARG = Annotated[
    Path | None,
    typer.Argument(help="A puzzle file (.c4p); default: the shipped starter set.",
                   metavar="FILE", show_default=False),
]


@puzzles_app.callback()
def _puzzles_options(size: SIZE_OPTION = None) -> None:
    """Puzzles: positions where exactly one move keeps the win (or the draw)."""
    check_size(size, "puzzles")


def _solver(book: bool, hash_text: str | None, threads: int) -> Solver:
    from .solve import build_solver

    try:
        return build_solver(options.hash_mb(hash_text), book, threads)
    except (ValueError, OSError, MemoryError) as exc:  # e.g. a damaged book
        fail(f"puzzles: {exc}", FAILURE)


def _read(path: Path | None) -> PuzzleFile:
    from c4tui.puzzles import starter_path
    from c4tui.puzzles.puzzlefile import PuzzleFileError, read_puzzles

    try:
        found = read_puzzles(path or starter_path())
    except PuzzleFileError as exc:
        fail(str(exc))
    for error in found.errors:  # they name the file and quote its line: not our text
        print(f"c4tui: {shown(error, None)}", file=sys.stderr)
    return found


def _load_games(files: list[str]) -> list[list[int]]:
    from c4tui.gamefile import GameFileError, load_game

    games = []
    for name in files:
        try:
            games.append(list(load_game(name).position.history))
        except GameFileError as exc:
            fail(f"puzzles build: {exc}")
    return games


class _Progress:
    """``games i/n: k puzzles`` on stderr: one line rewritten at a terminal, else a line
    every :data:`EVERY` games and at the end."""

    EVERY = 25

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int, found: int) -> None:
        text = f"games {done}/{total}: {found} puzzles"
        if self.tty:
            print(f"\r{text}", end="\n" if done == total else "", file=sys.stderr, flush=True)
        elif done % self.EVERY == 0 or done == total:
            print(text, file=sys.stderr, flush=True)


@puzzles_app.command()
def build(
    out: Annotated[Path, typer.Option("--out", "-o", help="The puzzle file to write "
                                      "(replaced if it exists).", show_default=False)],
    games: Annotated[
        list[str] | None,
        typer.Argument(help="Game files (.c4g or move strings) to look in.", metavar="GAMES",
                       show_default=False),
    ] = None,
    selfplay: Annotated[int | None, typer.Option(
        "--selfplay", metavar="N", help="Look in N seeded self-play games.")] = None,
    seed: Annotated[int, typer.Option(help="The self-play's seed.")] = 1,
    limit: Annotated[int, typer.Option("--max", help="Stop at this many puzzles.")] = DEFAULT_MAX,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: Annotated[int, typer.Option(help="The solver's threads (1: the nodes, hence "
                                         "the difficulty, are the same every run).")] = 1,
    size: SIZE_OPTION = None,
) -> None:
    """Find puzzles in games or self-play: exactly one move keeps the win (or the draw)."""
    check_size(size, "puzzles build")
    if not games and selfplay is None:
        fail("puzzles build: give game files or --selfplay N")
    if games and selfplay is not None:
        fail("puzzles build: game files or --selfplay N, not both")
    check_range("--max", limit, 1, 10**6)
    check_range("--threads", threads, 1, 1024)
    if selfplay is not None:
        check_range("--selfplay", selfplay, 1, MAX_GAMES)
    _check_out(out)
    played = _load_games(games) if games else []
    from c4tui.puzzles.builder import Builder

    builder = Builder(_solver(book, hash_text, threads))
    progress = _Progress()

    def run() -> None:
        if selfplay is not None:
            builder.from_selfplay(selfplay, seed, limit, progress)
        else:
            builder.from_games(played, limit, progress)

    interrupted = _run_interruptible(run, builder.stop)
    builder.close()
    source = (f"--selfplay {selfplay} --seed {seed}" if selfplay is not None
              else " ".join(games or []))
    _write(out, builder.found, f"c4tui puzzles build {source} --max {limit} --out {out.name}",
           interrupted)
    if interrupted:
        raise SystemExit(130)


def _check_out(out: Path) -> None:
    """Refuse ``--out`` before the build, not after it: the file is replaced by a rename,
    which would put a regular file in place of a device or a FIFO."""
    if out.exists() and not out.is_file():
        bad_value("--out", out, "not a regular file")
    if not out.parent.is_dir():
        bad_value("--out", out, f"directory {out.parent} does not exist")
    # a file beside it, as the atomic write makes one: a place that cannot be written (a
    # read-only folder or file system) is said now, not after the build
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.",
                                         suffix=".check"):
            pass
    except OSError as exc:
        bad_value("--out", out, f"cannot write in {out.parent} ({exc.strerror or exc})")


def _run_interruptible(run, stop) -> bool:
    """Run ``run`` in a thread; Ctrl-C calls ``stop`` and waits for it. True if
    interrupted."""
    errors: list[BaseException] = []

    def body() -> None:
        try:
            run()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            errors.append(exc)

    worker = threading.Thread(target=body, name="puzzles-build", daemon=True)
    worker.start()
    interrupted = False
    while worker.is_alive():
        try:
            worker.join(0.2)
        except KeyboardInterrupt:
            interrupted = True
            stop()
    if errors:
        raise errors[0]
    return interrupted


def _write(out: Path, found: Found, command: str, interrupted: bool) -> None:
    from c4tui.puzzles.puzzlefile import write_puzzles

    puzzles = sorted(found.puzzles, key=lambda p: (p.difficulty, len(p.moves), p.moves))
    comments = [f"built by: {command}" + (" (interrupted)" if interrupted else ""),
                f"{len(puzzles)} puzzles from {found.positions} positions "
                f"({found.duplicates} duplicates or mirror images dropped)"]
    try:
        write_puzzles(out, puzzles, comments)
    except OSError as exc:
        fail(f"puzzles build: {out}: cannot write ({exc.strerror or exc})", FAILURE)
    stopped = "interrupted: " if interrupted else ""
    print(f"{stopped}{len(puzzles)} puzzles written to {shown(str(out))}", file=sys.stderr)


@puzzles_app.command("list")
def list_puzzles(path: FILE_ARG = None) -> None:
    """Print each puzzle as '<moves> <the keeping column> <difficulty>' (digits)."""
    from c4tui.engine.board.position import MOVE_CHARS

    found = _read(path)
    for p in found.puzzles:
        print(f"{p.moves} {MOVE_CHARS[p.keep]} {p.difficulty}")
    if found.errors:
        raise SystemExit(FAILURE)


@puzzles_app.command()
def verify(
    path: FILE_ARG = None,
    sample: Annotated[int | None, typer.Option(
        "--sample", metavar="N", help="Verify N puzzles drawn at random (seeded).")] = None,
    seed: Annotated[int, typer.Option(help="The sample's seed.")] = 1,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: options.SOLVER_THREADS = None,
) -> None:
    """Re-solve every puzzle: exit 1 if one has not exactly one keeping move."""
    from c4tui.puzzles.verifier import problems

    found = _read(path)
    puzzles = found.puzzles
    if sample is not None:
        check_range("--sample", sample, 1, 10**6)
        puzzles = random.Random(seed).sample(puzzles, min(sample, len(puzzles)))
    solver = _solver(book, hash_text, options.threads(threads))
    bad = 0
    for p, why in problems(puzzles, solver):
        bad += 1
        print(f"{p.moves}: {why}")
    name = path or "the starter set"
    if bad or found.errors:
        fail(f"puzzles verify: {name}: {bad} of {len(puzzles)} puzzles do not verify"
             + (f", {len(found.errors)} bad lines" if found.errors else ""), FAILURE)
    print(f"{len(puzzles)} puzzles verified: each has exactly one keeping move")


def register(app: typer.Typer) -> None:
    """Add the ``puzzles`` command group to the CLI."""
    app.add_typer(puzzles_app, name="puzzles")
