"""The command line's one error helper and its exit codes.

Every command reports a problem the same way: one line ``c4tui: <what>`` on stderr, no
traceback, and one of two exit codes (a bad option value reads ``c4tui: --option VALUE:
reason``, :func:`bad_value`):

* :data:`USAGE` (2): the command line asks for something impossible: a bad option value,
  an illegal move sequence or game, a file that is not there;
* :data:`FAILURE` (1): the command ran and failed: damaged data (a book, a checkpoint),
  a check that found differences, an engine error.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from c4tui.bounded import shown

USAGE = 2
FAILURE = 1


def fail(message: str, code: int = USAGE) -> NoReturn:
    """Print ``c4tui: <message>`` on stderr and exit with ``code``: the CLI's one way to
    stop with an error, in a command as well as before any runs (``--size`` is read
    before the commands are imported, and ``main`` checks the environment first), hence
    ``SystemExit`` rather than the parser's own exit."""
    # a message quotes file names, headers and values typed: escaped as a whole (the one
    # rule for untrusted text), so no byte of them can act on the terminal
    print(f"c4tui: {shown(message, None)}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def bad_value(option: str, value: object, reason: str) -> NoReturn:
    """The one form of a bad option value: ``c4tui: <option> <value>: <reason>``, exit 2."""
    fail(f"{option} {value}: {reason}")


def check_range(option: str, value: int, lo: int, hi: int, unit: str = "") -> int:
    """``value`` if it is within ``[lo, hi]``; else the usage error that says the range."""
    if not lo <= value <= hi:
        bad_value(option, value, f"out of range ({lo:,} to {hi:,}{unit and ' ' + unit})")
    return value
