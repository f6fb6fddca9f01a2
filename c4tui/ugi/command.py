"""``c4tui engine``: the UGI engine as a command (a thin wrapper over :mod:`.protocol`)."""

from __future__ import annotations

import typer

from c4tui.cli.size import SIZE_OPTION, check_size


def register(app: typer.Typer) -> None:
    """Add the ``engine`` command to the CLI."""

    @app.command("engine")
    def engine_cmd(size: SIZE_OPTION = None) -> None:
        """Speak the UGI protocol on stdin/stdout (for match runners; see docs/protocol.md)."""
        from .protocol import main

        check_size(size, "engine")
        main()
