"""The ``c4tui`` command line: one command per module, registered by :mod:`.main`.

Dependencies go one way: the CLI imports the app, the book and the engine; nothing
imports the CLI.

The board size (``--size WxH``, any command) must be known before the engine is imported
(numba freezes it into the kernels), so :func:`main` reads it from the arguments first and
only then imports the commands; ``app`` is imported on first use.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point: set the board size from ``--size``, then run the command line."""
    from .size import apply_size_argument

    args = list(sys.argv[1:] if argv is None else argv)
    args = apply_size_argument(args)
    from .main import main as run

    run(args)


def __getattr__(name: str):
    if name == "app":
        from .main import app

        return app
    raise AttributeError(name)


__all__ = ["app", "main"]
