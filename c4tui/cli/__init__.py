"""The ``c4tui`` command line: one command per module, registered by :mod:`.main`.

Dependencies go one way: the CLI imports the app, the book, the engine, the UGI engine
and the web server (its ``engine`` and ``serve`` commands); nothing imports the CLI but
``python -m c4tui`` (tests/test_architecture.py checks it).

The board size (``--size WxH``, any command) must be known before the engine is imported
(numba freezes it into the kernels), and the commands import the engine: so when this
package is imported by the ``c4tui`` program itself, ``--size`` is read from the command
line first (:func:`.size.apply_size_argument`), before :mod:`.main` is imported.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .size import apply_size_argument


def _run_as_c4tui() -> bool:
    """Whether this process is the ``c4tui`` program (the script or ``python -m c4tui``)."""
    prog = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    return prog is not None and (prog.stem == "c4tui" or (
        prog.name == "__main__.py" and prog.parent.name == "c4tui"))


if _run_as_c4tui():
    apply_size_argument(sys.argv[1:])

from .main import main  # noqa: E402  (after the size: the commands import the engine)

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    """``app``, the Typer app with every command: built (its modules imported) on first
    use, so that ``c4tui solve`` imports the solve command's alone."""
    if name == "app":
        return sys.modules[f"{__name__}.main"].app  # the module (``main`` here is its function)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
