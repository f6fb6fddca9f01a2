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

import asyncio
import ctypes
import errno
import hmac
import ipaddress
import json
import logging
import os
import re
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer

from c4tui.cli.size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from aiohttp import web

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 4
#: The environment variable that may carry the token (safer than --token: the command
#: line of a process is visible to every local user, its environment is not).
TOKEN_ENV = "C4TUI_SERVE_TOKEN"
#: A token given by the user: long enough not to be guessed, and safe in a URL as is.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{16,}")
#: The terminal size a session may ask for, in cells: (min, max) per axis. A page asking
#: for 30000x30000 once grew its app to 5.8 GB.
WIDTH_RANGE = (10, 500)
HEIGHT_RANGE = (5, 200)
#: Seconds a session's app gets to quit by itself before its process group is killed.
QUIT_GRACE = 3.0

log = logging.getLogger("c4tui.serve")


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


def app_argv(args: list[str]) -> list[str]:
    """The command each browser session runs: this Python's ``c4tui open`` with ``args``
    (a position or a file, as for ``c4tui open``)."""
    return [sys.executable, "-m", "c4tui", "open", *args]


def app_command(args: list[str]) -> str:
    """:func:`app_argv` as one shell-quoted string (what the server prints)."""
    return shlex.join(app_argv(args))


def check_token(token: str) -> str:
    """``token`` if it is usable as the server's secret; ValueError (without the token in
    its message) if not."""
    if not TOKEN_PATTERN.fullmatch(token):
        raise ValueError(f"--token (or ${TOKEN_ENV}): must be at least 16 characters of "
                         f"A-Z a-z 0-9 . _ ~ - (got {len(token)} characters)")
    return token


def _host_part(netloc: str) -> tuple[str, str]:
    """``(host, port)`` of ``host[:port]`` (``[v6]:port`` too), lowercased; port may be ''."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        host, _, rest = netloc.partition("]")
        return host + "]", rest[1:] if rest.startswith(":") else ""
    host, _, port = netloc.rpartition(":") if netloc.count(":") == 1 else (netloc, "", "")
    return host, port


def _url_host(name: str) -> str:
    """``name`` as it appears in a URL or a Host header (an IPv6 address in brackets)."""
    name = name.strip("[]").lower()
    try:
        if ipaddress.ip_address(name).version == 6:
            return f"[{name}]"
    except ValueError:
        pass
    return name


class HostCheck:
    """Which ``Host`` headers name this server: against DNS rebinding, where a page of
    another site has its own host name resolve to 127.0.0.1 and calls the server as
    itself. Accepted: the bound host, ``localhost``, ``127.0.0.1`` and ``[::1]`` with the
    port, the host of ``--public-url``; and, on a wildcard address (``0.0.0.0``, ``::``),
    any IP address and this machine's own names (a rebinding needs a name)."""

    def __init__(self, host: str, port: int, public_url: str | None = None) -> None:
        self.port = str(port)
        names = {_url_host(host), "localhost", "127.0.0.1", "[::1]"}
        try:
            self.wildcard = ipaddress.ip_address(host.strip("[]")).is_unspecified
        except ValueError:
            self.wildcard = False
        if self.wildcard:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        self.netlocs = {f"{n}:{self.port}" for n in names}
        if port == 80:  # browsers leave out the default port
            self.netlocs |= names
        if public_url:
            url = urlsplit(public_url)
            if url.hostname:
                default = "443" if url.scheme == "https" else "80"
                name = _url_host(url.hostname)
                self.netlocs |= {f"{name}:{url.port or default}"}
                if url.port in (None, int(default)):
                    self.netlocs.add(name)

    def __call__(self, header: str) -> bool:
        """Whether the Host header ``header`` names this server."""
        netloc = header.strip().lower()
        if netloc in self.netlocs:
            return True
        if self.wildcard:
            host, port = _host_part(netloc)
            try:
                ipaddress.ip_address(host.strip("[]"))
            except ValueError:
                return False
            return port == self.port or (not port and self.port == "80")
        return False


def origin_ok(origin: str | None, host_header: str, public_url: str | None) -> bool:
    """Whether a websocket's ``Origin`` is the server's own: the page it was opened from
    came from the host the request is addressed to (or from ``--public-url``). Browsers
    always send one; a missing or ``null`` origin is refused."""
    if not origin or origin == "null" or not origin.isprintable() or " " in origin:
        return False  # a browser sends "scheme://host[:port]", nothing urlsplit would mend
    try:
        url = urlsplit(origin)
    except ValueError:  # e.g. "http://[::1:8765": no origin of ours
        return False
    if url.scheme not in ("http", "https") or not url.netloc or url.path or url.query:
        return False
    default = ":443" if url.scheme == "https" else ":80"
    netloc = url.netloc.lower().removesuffix(default)
    if netloc == host_header.strip().lower().removesuffix(default):
        return True
    if public_url:
        own = urlsplit(public_url)
        return (url.scheme, netloc) == (own.scheme, own.netloc.lower().removesuffix(default))
    return False


def clamp_size(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size in cells, clamped into :data:`WIDTH_RANGE` x :data:`HEIGHT_RANGE`;
    ValueError saying which value if one is not a whole number."""
    out = []
    for name, value, (lo, hi) in (("width", width, WIDTH_RANGE),
                                  ("height", height, HEIGHT_RANGE)):
        number = None
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            try:
                number = int(value)
            except ValueError:  # also a string of thousands of digits
                pass
        if number is None:
            raise ValueError(f"{name} must be a whole number of cells, not {value!r:.40}")
        out.append(min(max(number, lo), hi))
    return out[0], out[1]


def scrub_token(record: logging.LogRecord) -> bool:
    """A logging filter: the access log shows ``token=[secret]``, not the token (a log is
    read, kept and pasted more widely than the terminal the URL is printed on)."""
    message = record.getMessage()
    if "token=" in message:
        record.msg, record.args = re.sub(r"token=[^&\s\"]*", "token=[secret]", message), ()
    return True


def die_with_parent() -> Callable[[], None] | None:
    """On Linux, a function for a child to run before it execs: the kernel then kills it
    (SIGKILL) when the process that started it dies, even by SIGKILL, which leaves no
    chance to reap it. None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up now, not in the child
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the server died before the call
            os._exit(1)

    return preexec


def _refuse(status: int, message: str) -> web.Response:
    from aiohttp import web

    return web.Response(status=status, text=f"c4tui serve: {message}\n",
                        content_type="text/plain")


def make_server(argv: list[str], *, host: str, port: int, token: str,
                public_url: str | None = None,
                max_sessions: int = DEFAULT_MAX_SESSIONS) -> Any:
    """A textual-serve server for ``argv`` with the guards of this module (the classes
    are made here so that importing c4tui.serve does not import aiohttp)."""
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    class Session(AppService):
        """One browser session's app: run without a shell, in a process group of its own
        (the app may start a warm-up child), so that :meth:`reap` ends all of it."""

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            env = self._build_environment(width=width, height=height)
            env.pop(TOKEN_ENV, None)  # the app has no use for the server's secret
            self._process = process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True,
                preexec_fn=die_with_parent())
            self._stdin = process.stdin
            return process

        def kill(self, sig: int = signal.SIGKILL) -> None:
            """Send ``sig`` to the session's whole process group while its leader, the
            app, runs (once it has been waited for, its id may be another's)."""
            if self._process is not None and self._process.returncode is None:
                try:
                    os.killpg(self._process.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass

        async def reap(self, grace: float = QUIT_GRACE) -> None:
            """Ask the app to quit; kill its group if it has not within ``grace`` seconds
            (or will not read its input); wait for it in every case."""
            process = self._process
            if process is None:
                return
            loop = asyncio.get_running_loop()
            deadline = loop.time() + grace
            try:
                # stop() sends "quit" and reads to EOF; it swallows its own cancellation,
                # so the time left is measured, not taken from a TimeoutError.
                await asyncio.wait_for(self.stop(), grace)
                await asyncio.wait_for(process.wait(), max(0.0, deadline - loop.time()))
            except (asyncio.TimeoutError, OSError, RuntimeError):
                pass
            finally:
                self.kill()  # the group: a stuck app and any child it started
                await asyncio.shield(process.wait())

    class GuardedServer(Server):
        """textual-serve's server with a token, Host and Origin checks, bounded terminal
        sizes and a bounded number of sessions that are always reaped."""

        def __init__(self) -> None:
            super().__init__(shlex.join(argv), host=host, port=port, title="c4tui",
                             public_url=public_url)
            self.explicit_public_url = public_url
            self.token = token
            self.cookie = f"c4tui-token-{port}"  # per port: two servers on one host
            self.max_sessions = max_sessions
            self.host_ok = HostCheck(host, port, public_url)
            self.sessions: set[Session] = set()

        @property
        def start_url(self) -> str:
            """The URL to open, with the token (on a wildcard address, by this machine's
            name, which the Host check accepts)."""
            if self.explicit_public_url:
                base = self.explicit_public_url.rstrip("/")
            else:
                name = socket.gethostname() if self.host_ok.wildcard else _url_host(host)
                base = f"http://{name}:{port}"
            return f"{base}/?token={self.token}"

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(self.guard)
            return app

        def _token_ok(self, given: str | None) -> bool:
            return given is not None and hmac.compare_digest(
                given.encode("utf-8", "replace"), self.token.encode())

        @web.middleware
        async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
            """Refuse (403, one plain line) a request to a foreign Host, without the
            token, or (the websocket) from a foreign Origin; the first page load with
            ``?token=`` leaves the token in a cookie for the page's own requests."""
            if not self.host_ok(request.host):
                return _refuse(403, f"the Host {request.host[:80]!r} is not this server "
                                    f"(open the URL c4tui serve printed)")
            by_query = self._token_ok(request.query.get("token"))
            if not (by_query or self._token_ok(request.cookies.get(self.cookie))):
                return _refuse(403, "a valid token is needed: open the URL with ?token= "
                                    "that c4tui serve printed at start")
            if request.path == "/ws" and not origin_ok(
                    request.headers.get("Origin"), request.host, self.explicit_public_url):
                origin = request.headers.get("Origin", "none")[:80]
                return _refuse(403, f"the websocket's Origin {origin!r} is not this "
                                    f"server's")
            response = await handler(request)
            if by_query and request.path == "/" and isinstance(response, web.Response):
                response.set_cookie(self.cookie, self.token, path="/", httponly=True,
                                    samesite="Strict",
                                    secure=self.public_url.startswith("https:"))
            return response

        async def handle_index(self, request: web.Request) -> Any:
            # textual-serve points the page at public_url; without --public-url use the
            # address the browser used (localhost or 127.0.0.1), so that the websocket
            # goes back to the same origin and carries the cookie.
            # (Set just before the call: textual-serve reads it without awaiting between.)
            if self.explicit_public_url is None:
                self.public_url = f"http://{request.host}"
            return await Server.handle_index(self, request)

        def initialize_logging(self) -> None:
            super().initialize_logging()
            logging.getLogger("aiohttp.access").addFilter(scrub_token)

        async def on_startup(self, app: web.Application) -> None:
            pass  # no logo: the URL is printed once the port listens (serve)

        def serve(self, debug: bool = False) -> None:
            """Serve until SIGINT or SIGTERM; print the URL to open once it listens."""
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self.request_exit)
            web.run_app(self._make_app(), host=self.host, port=self.port,
                        handle_signals=False, loop=loop, print=lambda *_: self.announce())

        def announce(self) -> None:
            print(f"c4tui serve: open {self.start_url}\n"
                  f"(each tab runs {self.command}; at most {self.max_sessions} at once; "
                  f"Ctrl+C quits)", flush=True)

        async def on_shutdown(self, app: web.Application) -> None:
            for session in list(self.sessions):
                session.kill(signal.SIGTERM)
            await asyncio.gather(*(s.reap(grace=1.0) for s in list(self.sessions)),
                                 return_exceptions=True)

        async def _process_messages(self, websocket: web.WebSocketResponse,
                                    app_service: AppService) -> None:
            # As textual-serve's, but a malformed message is dropped instead of ending the
            # session with a traceback, and a resize is clamped like the first size.
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                except (ValueError, TypeError, IndexError, KeyError):
                    continue
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8"))
                elif kind == "resize" and isinstance(data, dict):
                    try:
                        width, height = clamp_size(data.get("width"), data.get("height"))
                    except ValueError:
                        continue
                    await app_service.set_terminal_size(width, height)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            try:
                width, height = clamp_size(request.query.get("width", "80"),
                                           request.query.get("height", "24"))
            except ValueError as exc:
                return _refuse(400, str(exc))
            websocket = web.WebSocketResponse(heartbeat=15)
            if len(self.sessions) >= self.max_sessions:
                # Accepted only to say why: a refused upgrade shows nothing in the page.
                why = (f"all {self.max_sessions} sessions are in use (--max-sessions); "
                       f"close one and reload")
                log.warning("c4tui serve: refused a session: %s", why)
                await websocket.prepare(request)
                await websocket.send_bytes(f"c4tui serve: {why}\r\n".encode())
                await websocket.close(code=1013, message=why.encode()[:120])
                return websocket
            session = Session(self.command, write_bytes=websocket.send_bytes,
                              write_str=websocket.send_str, close=websocket.close,
                              download_manager=self.download_manager, debug=self.debug)
            self.sessions.add(session)  # counted before the first await: no race
            try:
                await websocket.prepare(request)
                await session.start(width, height)
                await self._process_messages(websocket, session)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken pipe, a failed start: end this session
                log.warning("c4tui serve: a session ended: %s", exc)
            finally:
                try:
                    await asyncio.shield(session.reap())
                finally:
                    self.sessions.discard(session)
                    if not websocket.closed:
                        await websocket.close()
            return websocket

    return GuardedServer()


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
        from c4tui.cli.errors import check_range, fail
        from c4tui.cli.open import resolve_target

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
