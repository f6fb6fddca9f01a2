"""The option vocabulary shared by the commands: one name, one check per concept.

``--nodes N`` is a node count (``500k``, ``2M``, ``1e6``; 0: no node limit), ``--hash MB``
a table size in whole MB, ``--threads N`` the solver's threads, ``--book/--no-book`` the
opening book, ``--play SIDE`` the side the engine plays and ``--strength S`` how (a level
1-10, or nodes). Defaults are not restated here: an option left out is not passed on, so
the command's own default applies (``Limits()`` is unbounded: each front end names its
node limit, e.g. :data:`MILTON_NODES`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, TextIO, TypeVar

import typer

from c4tui.bounded import LineTooLong, bounded_lines, shown
from c4tui.engine.seam import MAX_THREADS, THREADS_ENV, default_threads
from c4tui.units import (
    MAX_HASH_MB,
    MAX_NODE_LIMIT,
    Strength,
    UnitError,
    parse_count,
    parse_mb,
    parse_strength,
    round_count,
)

from .errors import bad_value, check_range, fail

T = TypeVar("T")

NODES_HELP = "e.g. 500k, 2M, 1e6; 0: no limit"
#: ``--nodes``'s least value in every command: 0, no node limit (the search ends at its
#: other bounds or at the full depth, an exact answer), the same as leaving ``Limits.nodes``
#: None; a count of nodes otherwise.
NODES_LO = 0
#: MILTON's node limit, one million nodes a search: ``c4tui analyze``'s and ``c4tui bench
#: --accuracy``'s default (docs/analysis.md measures the search at it).
MILTON_NODES = 1_000_000
#: How the help names it.
MILTON_DEFAULT = f"{round_count(MILTON_NODES)}, MILTON's"
HASH_HELP = f"in whole MB, 1-{MAX_HASH_MB}: 64, 64M or 1G"
STRENGTH_HELP = "a level, 1 (beginner) to 10 (perfect play); or the search's nodes: 100k"
#: ``--play``'s values: the engine's side (0 White, 1 Black)
SIDES = {"white": 0, "black": 1}



def hash_option(table: str = "Transposition table size", default: str = "the solver's") -> Any:
    """The ``--hash MB`` option, declared here once for every command (its value is read
    by :func:`hash_mb`): ``table`` says which tables, ``default`` the size without it."""
    return typer.Option("--hash", metavar="MB", show_default=False,
                        help=f"{table} ({HASH_HELP}; default: {default}).")


#: The exact solver's options, shared by ``solve`` and ``review``.
#: The review's N of the ``?!`` marks (``review``, and the app's ``R``).
INACCURACY = Annotated[
    int, typer.Option("--inaccuracy", metavar="N", help="Mark ?! a move that keeps the "
                      "result but makes it N or more moves slower (1 to the board's squares: "
                      "1-42 on 7x6; the review).")
]

#: The positions of ``solve`` and ``explain``: arguments, or stdin when there are none.
POSITIONS = Annotated[
    list[str] | None,
    typer.Argument(help="Positions: 4453, 'd1 d2 e1 c1' (or its squares as words), "
                   "\"\" the empty board; none: read stdin, one per line.",
                   show_default=False),
]
SOLVER_BOOK = Annotated[bool, typer.Option("--book/--no-book", help="Use the opening books.")]
SOLVER_HASH = Annotated[str | None, hash_option()]
SOLVER_THREADS = Annotated[
    int | None,
    typer.Option("--threads", "-t", help="Search threads sharing the table (default: one "
                 f"per usable core, or ${THREADS_ENV}; 1 is deterministic)."),
]


def nodes_option(what: str, default: str, metavar: str = "N") -> Any:
    """The ``--nodes`` option, declared here once for every command (its value is read by
    :func:`node_count` or :func:`node_limit`): ``what`` says what it bounds, ``default``
    what applies without it; ``metavar`` ``N|A/B`` where each engine may have its own."""
    return typer.Option("--nodes", metavar=metavar, show_default=False,
                        help=f"{what} ({NODES_HELP}; default: {default}).")


def node_count(text: str, option: str = "--nodes") -> int:
    """One ``--nodes`` count, :data:`NODES_LO` (0: no limit) or more; or a one-line usage
    error."""
    try:
        return parse_count(text, option, NODES_LO, MAX_NODE_LIMIT)
    except UnitError as exc:
        bad_value(option, exc.value, exc.reason)


def node_limit(text: str | None, default: int | None) -> int | None:
    """``Limits.nodes`` from ``--nodes``: ``default`` (the command's own) when it is not
    given, None (no limit) for 0, else the count; or a one-line usage error."""
    if text is None:
        return default
    return node_count(text) or None


def hash_mb(text: str | None, option: str = "--hash") -> int | None:
    """A ``--hash`` value in MB (None: not given), or a one-line usage error."""
    if text is None:
        return None
    try:
        return parse_mb(text, option)
    except UnitError as exc:
        bad_value(option, exc.value, exc.reason)


def strength(text: str, option: str = "--strength") -> Strength:
    """A ``--strength`` value (a level, or a node limit), or a one-line usage error."""
    try:
        return parse_strength(text, option)
    except UnitError as exc:
        bad_value(option, exc.value, exc.reason)


def side(text: str, option: str = "--play") -> int:
    """A side (``white`` or ``black``): 0 or 1; or a one-line usage error."""
    value = SIDES.get(text.strip().lower())
    if value is None:
        bad_value(option, repr(text), "not a side (white or black)")
    return value


def threads(n: int | None) -> int:
    """A ``--threads`` value (None: the default, one per usable core), or a one-line usage
    error."""
    if n is None:
        try:
            return default_threads()
        except ValueError as exc:
            fail(str(exc))
    return check_range("--threads", n, 1, MAX_THREADS)


def given(**values: T | None) -> dict[str, T]:
    """The keyword arguments that were given (not None): the rest keep their defaults."""
    return {k: v for k, v in values.items() if v is not None}


def stdin() -> TextIO:
    """Standard input for reading positions: bytes that are not UTF-8 become U+FFFD, so
    they are reported as a bad character like any other instead of a traceback."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (ValueError, OSError):  # already read from: keep it as it is
            pass
    return sys.stdin


def stdin_lines() -> Iterator[str | LineTooLong]:
    """The lines of standard input without their ends, bounded (an over-long line is a
    :class:`LineTooLong`), a leading byte-order mark dropped (game files drop it too).

    Blank lines are yielded: a reader skips them (a blank line is not a position; the
    empty board is the argument ``""``, or the line ``""``: :func:`position_text`) but
    counts them, so that errors name the line.
    """
    for n, line in enumerate(bounded_lines(stdin()), 1):
        if isinstance(line, LineTooLong):
            yield line
            continue
        line = line.rstrip("\r\n")
        yield line.removeprefix("\ufeff") if n == 1 else line


#: A line of stdin that names the empty board, as ``""`` does on the command line (the
#: shell takes the quotes away there; on stdin they arrive as two characters).
EMPTY_BOARD_LINES = ('""', "''")


def position_text(line: str) -> str:
    """A line of stdin as a position's text: ``""`` (or ``''``) is the empty board, as the
    argument ``""`` is; any other line is itself (a blank one is not a position)."""
    return "" if line.strip() in EMPTY_BOARD_LINES else line


def stdin_positions() -> Iterator[tuple[str, str | LineTooLong]]:
    """Standard input's positions for a command that reads many (``solve``): pairs of
    where (``line 3``, for errors) and the text (:func:`position_text`) or a
    :class:`LineTooLong`; blank lines are left out but counted."""
    for n, line in enumerate(stdin_lines(), 1):
        if isinstance(line, LineTooLong):
            yield f"line {line.number}", line
        elif line.strip():
            yield f"line {n}", position_text(line)


def check_inaccuracy(moves: int) -> None:
    """``--inaccuracy N``: 1 to the board's squares (a game is no longer; 42 on 7x6), or a
    one-line error. Call once the size is set (it imports the engine's geometry)."""
    from c4tui.engine.board.geometry import SIZE

    check_range("--inaccuracy", moves, 1, SIZE)


def picture_path(command: str, option: str, value: str) -> Path | None:
    """Where a picture option (``--svg``, ``--png``) writes, checked before any work:
    ``-`` (stdout) is None; a folder, a FIFO or a device is bad input (one line, exit 2),
    not a failure found after the picture was made."""
    if value == "-":
        return None
    path = Path(value).expanduser()
    if path.is_dir():
        fail(f"{command}: {option} {shown(value)}: is a folder")
    if path.exists() and not path.is_file():
        fail(f"{command}: {option} {shown(value)}: not a regular file")
    return path
