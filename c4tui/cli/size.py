"""``--size WxH``: the board size of the process, set before the engine is imported.

The engine reads ``C4TUI_SIZE`` once, when it is first imported (numba freezes the size
into its kernels, see :mod:`c4tui.engine.board.geometry`). :func:`apply_size_argument` runs
before the commands are imported (``c4tui.cli``'s import, in the ``c4tui`` program) and
turns ``--size`` into that variable; :func:`c4tui.cli.main.main` runs it again on its
arguments (checking the size, dropping the option); every command
also declares the option (:data:`SIZE_OPTION`, for ``--help``) and :func:`check_size`
makes sure the engine runs the size asked for.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from .errors import fail

SIZE_HELP = ("Board size, columns x rows (default 7x6): W and H at least 4, W at most 25, "
             "(H + 1) x W at most 128 (8x8, 9x9, 10x10). The opening books exist for 7x6 "
             "only.")
SIZE_OPTION = Annotated[
    str | None,
    typer.Option("--size", metavar="WxH", show_default=False, help=SIZE_HELP),
]


def _size_value(args: list[str]) -> str | None:
    """The value of the last ``--size`` in ``args`` (before a ``--``), or None."""
    value = None
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--size":
            value = args[i + 1] if i + 1 < len(args) else ""
        elif a.startswith("--size="):
            value = a[len("--size="):]
    return value


def apply_size_argument(args: list[str]) -> list[str]:
    """Set ``C4TUI_SIZE`` from ``--size`` in ``args`` (if the engine is not imported yet),
    then load the engine's geometry: a bad size is a one-line error (exit status 2).

    Returns ``args`` without the ``--size`` options, which are done with (so ``--size``
    may stand anywhere: ``c4tui --size 5x4 book info`` as well as ``c4tui book info
    --size 5x4``)."""
    value = _size_value(args)
    if value is not None and "c4tui.engine" not in sys.modules:
        os.environ["C4TUI_SIZE"] = value
    try:
        from c4tui.engine.board import geometry  # reads the size once

        asked = geometry.parse_size(value) if value is not None else None
    except ValueError as exc:  # geometry.BoardSizeError (a bad --size or C4TUI_SIZE)
        where = "--size" if value is not None else "C4TUI_SIZE"
        # the option's form, --size 3x3: why (the class is the failed import's: no isinstance)
        value_why = (getattr(exc, "value", None), getattr(exc, "why", None))
        fail(f"{where} {value_why[0]}: {value_why[1]}" if None not in value_why
             else f"{where}: {exc}")
    if asked is not None and asked != (geometry.WIDTH, geometry.HEIGHT):
        fail(f"--size {value}: this process already runs {geometry.NAME} (the size is set "
              "once, before the engine starts)")
    return _without_size(args)


def _without_size(args: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return out + args[i:]
        if a == "--size" and i + 1 < len(args):
            i += 2
            continue
        if not a.startswith("--size="):
            out.append(a)
        i += 1
    return out


def check_size(text: str | None, command: str) -> None:
    """A command's ``--size``: a one-line usage error unless the engine runs that size
    (it does when the size came through :func:`c4tui.cli.main`)."""
    if text is None:
        return
    from c4tui.engine.board import geometry

    try:
        size = geometry.parse_size(text)
    except geometry.BoardSizeError as exc:
        fail(f"{command}: --size {exc.value}: {exc.why}")
    if size != (geometry.WIDTH, geometry.HEIGHT):
        fail(f"{command}: --size {text}: this process already runs {geometry.NAME} "
             "(the size is set once, before the engine starts)")
