"""One-line errors for the command line (no tracebacks for bad input)."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``c4tui: <message>`` on stderr and exit (2: usage error)."""
    print(f"c4tui: {message}", file=sys.stderr)
    raise typer.Exit(code)
