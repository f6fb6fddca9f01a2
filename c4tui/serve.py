"""``c4tui serve``: the workstation in a web browser, served by textual-serve.

Each browser tab that opens the page starts its own ``c4tui`` process (the same app as in a
terminal); textual-serve relays the terminal to the page over a websocket. The server
listens on the loopback interface by default. It has no login of its own, so a non-local
``--host`` is refused unless ``--public`` says that is meant: docs/serve.md shows how to put
it behind a reverse proxy with authentication instead.
"""

from __future__ import annotations

import ipaddress
import shlex
import sys
from typing import Annotated

import typer

from c4tui.cli.size import SIZE_OPTION, check_size

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def is_local(host: str) -> bool:
    """Whether ``host`` names this machine's loopback interface only (``localhost``,
    127.0.0.0/8, ``::1``). A name other than ``localhost`` is not trusted to be local:
    it may resolve to any address."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(args: list[str]) -> str:
    """The shell command textual-serve runs for each browser session: this Python's
    ``c4tui`` with ``args`` (a position or a file, as for ``c4tui open``)."""
    return shlex.join([sys.executable, "-m", "c4tui", "open", *args])


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, public: bool = False,
          public_url: str | None = None, args: list[str] | None = None) -> None:
    """Serve the workstation until interrupted; ValueError if ``host`` is not local and
    ``public`` is not set."""
    if not public and not is_local(host):
        raise ValueError(
            f"--host {host} is not a local address, and the server has no login: add "
            f"--public to serve it there anyway, or put it behind a reverse proxy with "
            f"authentication (docs/serve.md)")
    from textual_serve.server import Server

    Server(app_command(list(args or [])), host=host, port=port, title="c4tui",
           public_url=public_url).serve()


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
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")]
            = DEFAULT_PORT,
        public: Annotated[bool, typer.Option(
            "--public", help="Allow a non-local --host: anyone who reaches it gets the app.")]
            = False,
        public_url: Annotated[str | None, typer.Option(
            "--public-url", help="The URL browsers use, when it differs (a reverse proxy: "
            "https://c4.example.org).", show_default=False)] = None,
        size: SIZE_OPTION = None,
    ) -> None:
        """Serve the workstation to a web browser (textual-serve; see docs/serve.md)."""
        from c4tui.cli.errors import FAILURE, fail

        check_size(size, "serve")  # the sessions inherit the size (C4TUI_SIZE)

        try:
            serve(host, port, public=public, public_url=public_url, args=target)
        except ValueError as exc:
            fail(str(exc))
        except OSError as exc:  # the port is taken, the address is not ours ...
            fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}", FAILURE)
