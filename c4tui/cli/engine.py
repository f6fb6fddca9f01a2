"""``c4tui engine``: the UGI engine on stdin/stdout (:mod:`c4tui.ugi.protocol`), for match
runners and other GUIs (docs/protocol.md)."""

from __future__ import annotations

import typer

from .size import SIZE_OPTION, check_size


def register(app: typer.Typer) -> None:
    """Add the ``engine`` command to the CLI."""

    @app.command("engine")
    def engine_cmd(size: SIZE_OPTION = None) -> None:
        """Speak the UGI protocol on stdin/stdout (for match runners; see docs/protocol.md)."""
        from c4tui.ugi.protocol import main

        check_size(size, "engine")
        main()
