"""``c4tui serve``: the workstation in a web browser (the server is :mod:`c4tui.serve`)."""

from __future__ import annotations

from typing import Annotated

import typer

from c4tui.serve import (
    DEFAULT_HOST,
    DEFAULT_MAX_SESSIONS,
    DEFAULT_PORT,
    bind_error,
    serve,
)
from c4tui.serve.guards import TOKEN_ENV

from .errors import check_range, fail
from .open import resolve_target
from .size import SIZE_OPTION, check_size


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the CLI."""

    @app.command("serve")
    def serve_cmd(
        target: Annotated[list[str] | None, typer.Argument(
            help="Open each session on this position or game file (as c4tui open).",
            show_default=False)] = None,
        host: Annotated[str, typer.Option(
            "--host", help="Address to listen on (non-local ones need --public).")]
            = DEFAULT_HOST,
        port: Annotated[int, typer.Option("--port", help="TCP port (1-65535).")]
            = DEFAULT_PORT,
        public: Annotated[bool, typer.Option(
            "--public", help="Allow a non-local --host: the token then travels in clear.")]
            = False,
        public_url: Annotated[str | None, typer.Option(
            "--public-url", help="The URL browsers use, when it differs (a reverse proxy: "
            "https://c4.example.org).", show_default=False)] = None,
        token: Annotated[str | None, typer.Option(
            "--token", envvar=TOKEN_ENV, help="The secret the URL must carry (default: a "
            f"new random one). Prefer ${TOKEN_ENV}: other users can see a command line.",
            show_default=False)] = None,
        max_sessions: Annotated[int, typer.Option(
            "--max-sessions",
            help="Browser sessions (app processes) at once, 1-64; more are refused.")]
            = DEFAULT_MAX_SESSIONS,
        size: SIZE_OPTION = None,
    ) -> None:
        """Serve the workstation to a web browser (textual-serve; see docs/serve.md)."""
        check_size(size, "serve")  # the sessions inherit the size (C4TUI_SIZE)
        check_range("--port", port, 1, 65535)
        check_range("--max-sessions", max_sessions, 1, 64)
        try:  # here, as c4tui open would: a session's error reaches only the server's log
            resolve_target(list(target or []))
        except ValueError as exc:
            fail(str(exc))

        try:
            serve(host, port, public=public, public_url=public_url, args=target,
                  token=token, max_sessions=max_sessions)
        except ValueError as exc:
            fail(str(exc))
        except OSError as exc:  # raised binding, before the URL is printed
            fail(bind_error(host, port, exc))
