"""The server of ``c4tui serve``: textual-serve's, with the guards of
:mod:`c4tui.serve.guards` on every request, and one process group per browser session
(:class:`Session`) that is always reaped. Imports aiohttp and textual-serve, which
:func:`c4tui.serve.make_server` loads only when a server is made.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import shlex
import signal
import socket
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .guards import (
    TOKEN_ENV,
    HostCheck,
    _url_host,
    clamp_size,
    die_with_parent,
    origin_ok,
    scrub_token,
)

#: Seconds a session's app gets to quit by itself before its process group is killed.
QUIT_GRACE = 3.0
#: The page's template: textual-serve's, but self-contained (its web font comes from this
#: server's /static, textual-serve's own copy, instead of fonts.googleapis.com).
TEMPLATES = Path(__file__).parent  # app_index.html: textual-serve's page, self-contained

log = logging.getLogger("c4tui.serve")


def _refuse(status: int, message: str) -> web.Response:
    return web.Response(status=status, text=f"c4tui serve: {message}\n",
                        content_type="text/plain")


class Session(AppService):
    """One browser session's app: run without a shell, in a process group of its own
    (the app may start a warm-up child), so that :meth:`reap` ends all of it."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        env = self._build_environment(width=width, height=height)
        env.pop(TOKEN_ENV, None)  # the app has no use for the server's secret
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
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

    def __init__(self, argv: list[str], *, host: str, port: int, token: str,
                 public_url: str | None, max_sessions: int) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title="c4tui",
                         public_url=public_url, templates_path=TEMPLATES)
        self.argv = argv
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
            name = socket.gethostname() if self.host_ok.wildcard else _url_host(self.host)
            base = f"http://{name}:{self.port}"
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

    async def handle_websocket(  # type: ignore[override]  # a bad size gets a plain 400
            self, request: web.Request) -> web.StreamResponse:
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
        session = Session(self.argv, write_bytes=websocket.send_bytes,
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
