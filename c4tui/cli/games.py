"""``c4tui games``: the games in the data directory, newest first (as key ``G`` shows)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from c4tui.bounded import shown

from .errors import fail


def games(
    directory: Annotated[
        Path | None,
        typer.Argument(help="Where to look (default: the data directory).",
                       show_default=False),
    ] = None,
) -> None:
    """List the game files: name, modified, players, result, moves; newest first."""
    from c4tui import gamefile
    from c4tui.gamelist import COLUMNS, list_games

    where = (directory.expanduser() if directory else gamefile.data_dir())
    if directory is not None and not where.is_dir():
        fail(f"{where}: not a directory")
    entries = list_games(where)
    if not entries:
        typer.echo(f"no games in {shown(str(where))}")
        return
    rows = [COLUMNS, *(e.cells() for e in entries)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    for r in rows:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    for e in entries:
        if (error := e.error_line()) is not None:
            typer.echo(error, err=True)


def register(app: typer.Typer) -> None:
    """Add ``games`` to the CLI."""
    app.command("games")(games)
