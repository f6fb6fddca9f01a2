"""``c4tui engine``: the UGI engine on stdin/stdout (:mod:`c4tui.ugi.protocol`), for match
runners and other GUIs (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from c4tui.units import UnitError, parse_level

from .errors import bad_value
from .size import SIZE_OPTION, check_size


def register(app: typer.Typer) -> None:
    """Add the ``engine`` command to the CLI."""

    @app.command("engine")
    def engine_cmd(
        level: Annotated[
            str | None,
            typer.Option("--level", metavar="L", show_default=False,
                         help="Play at strength level L, 1-10 (10: perfect play); the UGI "
                         "option Level, which setoption can change. Default: full strength "
                         "under the go limits."),
        ] = None,
        size: SIZE_OPTION = None,
    ) -> None:
        """Speak the UGI protocol on stdin/stdout (for match runners; see docs/protocol.md)."""
        check_size(size, "engine")
        number = 0
        if level is not None:
            try:
                number = parse_level(level, "--level")
            except UnitError as exc:
                bad_value("--level", exc.value, exc.reason)
        from c4tui.ugi.protocol import main

        main(level=number)
