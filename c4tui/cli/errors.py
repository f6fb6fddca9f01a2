"""The command line's one error helper and its exit codes.

Every command reports a problem the same way: one line ``c4tui: <what>`` on stderr, no
traceback, and one of two exit codes:

* :data:`USAGE` (2): the command line asks for something impossible: a bad option value,
  an illegal move sequence or game, a file that is not there;
* :data:`FAILURE` (1): the command ran and failed: damaged data (a book, a checkpoint),
  a check that found differences, an engine error.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

USAGE = 2
FAILURE = 1


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print ``c4tui: <message>`` on stderr and exit with ``code``."""
    print(f"c4tui: {message}", file=sys.stderr, flush=True)
    raise typer.Exit(code)
