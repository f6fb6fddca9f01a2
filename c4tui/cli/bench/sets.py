"""The positions the benchmarks read: Pons's sets (``<moves> [score]`` lines) and the
files given to ``c4tui bench``, each read once, bounded, with a one-line error."""

from __future__ import annotations

from pathlib import Path

from c4tui.bounded import read_file

from ..errors import fail

DEFAULT_SETS = ("Test_L2_R2", "Test_L1_R2")
#: The largest positions file a benchmark reads (Pons's sets have 20-30 kB).
SET_CAP = 16 << 20


def pons_dir() -> Path:
    """The Pons benchmark sets: the repository's copy, else the shared test data."""
    here = Path(__file__).resolve().parents[3]  # the repository: c4tui/cli/bench/sets.py
    for cand in (here / "tests" / "data" / "pons", here.parent / "shared" / "testdata" / "pons"):
        if cand.is_dir():
            return cand
    fail("benchmark sets not found (tests/data/pons); pass --data DIR")


def is_file_set(name: str) -> bool:
    """Whether a ``--set`` names a file (a path) rather than one of Pons's sets."""
    return "/" in name or "\\" in name or Path(name).is_file()


def load_set(directory: Path | None, name: str, count: int, zero_based: bool = False,
             check_moves: bool = False) -> list[tuple[str, int]]:
    """The first ``count`` positions of the Pons set ``name`` (in ``directory``, default
    :func:`pons_dir`) or of the file ``name``, with their scores; ``zero_based``: the file
    counts columns from 0 (the moves come back as ``0:`` strings, which
    ``Position.parse`` reads); ``check_moves``: a position the board cannot have is a
    one-line error naming its line (for the callers that solve every position)."""
    if is_file_set(name):
        path = Path(name)
    else:
        directory = directory or pons_dir()
        path = directory / name
        if not path.is_file():
            fail(f"--set {name}: no such benchmark set in {directory}")
    rows = read_set(path, count)
    missing = next((n for n, (_, s) in enumerate(rows, 1) if s is None), None)
    if missing is not None:
        fail(f"{path}:{missing}: expected '<moves> <score>'")
    from c4tui.engine.board.position import IllegalMoveError, Position

    prefix = "0:" if zero_based else ""
    for n, (moves, _) in enumerate(rows if check_moves else (), 1):
        try:
            Position.parse(prefix + moves)
        except IllegalMoveError as exc:
            fail(f"{path}:{n}: {exc}")
    return [(prefix + m, int(s)) for m, s in rows if s is not None]


def read_text(path: Path) -> str:
    """A benchmark file's text (a regular file of at most SET_CAP bytes), or a one-line
    error."""
    try:
        return read_file(path, SET_CAP, "positions file").decode("utf-8", "replace")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


def read_set(path: Path, count: int) -> list[tuple[str, int | None]]:
    """The first ``count`` positions of a file of ``<moves> [score]`` lines (a score, where
    given, is checked), or a one-line error naming the bad line."""
    rows: list[tuple[str, int | None]] = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if len(rows) == count:
            break
        parts = line.split()
        if not parts or len(parts) > 2 or not parts[0].isdigit() or (
                len(parts) == 2 and not parts[1].lstrip("-").isdigit()) or len(line) > 200:
            fail(f"{path}:{n}: expected '<moves> [score]'")
        rows.append((parts[0], int(parts[1]) if len(parts) == 2 else None))
    return rows
