"""``c4tui serve``: the workstation in a web browser, served by textual-serve.

Each browser tab that opens the page starts its own ``c4tui`` process (the same app as in a
terminal); textual-serve relays the terminal to the page over a websocket. Whoever drives
a session can read and write files as the user running the server, so the server guards
every request (docs/serve.md has the threat model):

* a secret token, printed at start in the URL (``/?token=...``, as Jupyter does), must come
  with every request, in the query or in the cookie the first page load sets;
* the ``Host`` header must name this server (a DNS-rebinding page's host name is refused);
* the websocket's ``Origin`` must be the server's own (another site's page is refused);
* the terminal size is clamped and the sessions are counted (``--max-sessions``); the
  process of a session that ends is asked to quit, then killed, and always waited for.

It listens on the loopback interface by default; a non-local ``--host`` is refused unless
``--public`` says that is meant (plain http would carry the token in clear).
"""

from __future__ import annotations

import errno
import os
import secrets
import shlex
import sys
from typing import Any

from .guards import check_token, is_local

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 4


def app_argv(args: list[str]) -> list[str]:
    """The command each browser session runs: this Python's ``c4tui open`` with ``args``
    (a position or a file, as for ``c4tui open``)."""
    return [sys.executable, "-m", "c4tui", "open", *args]


def app_command(args: list[str]) -> str:
    """:func:`app_argv` as one shell-quoted string (what the server prints)."""
    return shlex.join(app_argv(args))


def make_server(argv: list[str], *, host: str, port: int, token: str,
                public_url: str | None = None,
                max_sessions: int = DEFAULT_MAX_SESSIONS) -> Any:
    """A textual-serve server for ``argv`` with the guards of :mod:`c4tui.serve.guards`
    (imported here, so that importing c4tui.serve does not import aiohttp)."""
    from .server import GuardedServer

    return GuardedServer(argv, host=host, port=port, token=token, public_url=public_url,
                         max_sessions=max_sessions)


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, public: bool = False,
          public_url: str | None = None, args: list[str] | None = None,
          token: str | None = None, max_sessions: int = DEFAULT_MAX_SESSIONS) -> None:
    """Serve the workstation until interrupted; ValueError if ``host`` is not local and
    ``public`` is not set, or ``token`` is not usable. Without ``token`` a new random one
    is made."""
    if not public and not is_local(host):
        raise ValueError(
            f"--host {host} is not a local address, and plain http would carry the "
            f"session token in clear: add --public to serve it there anyway, or put it "
            f"behind a reverse proxy with TLS (docs/serve.md)")
    token = check_token(token) if token is not None else secrets.token_urlsafe(32)
    make_server(app_argv(list(args or [])), host=host, port=port, token=token,
                public_url=public_url, max_sessions=max_sessions).serve()


def bind_error(host: str, port: int, exc: OSError) -> str:
    """The one-line error for a ``host``/``port`` the server cannot listen on."""
    if exc.errno == errno.EADDRINUSE:
        return f"--port {port}: {host}:{port} is taken (another program listens there)"
    reason = os.strerror(exc.errno) if exc.errno else str(exc)  # aiohttp's text repeats it
    return f"--host {host} --port {port}: cannot listen there: {reason.lower()}"
