"""``c4tui serve``: local by default, guarded against other web pages, bounded, and the
workstation really works in a browser.

The guard tests start real ``c4tui serve`` processes on free ports and talk to them as a
hostile page would (http.client for pages, aiohttp or a raw socket for the websocket); they
find the app processes of the sessions as the server's children in /proc.

The browser test drives Debian's chromium through its chromedriver with selenium (CI's
``.ci/run`` installs both; ``make test`` installs nothing). Without them it skips and says
how to install them, except in CI (``CI=true``), where it fails: a browser test that
silently never runs would prove nothing.

The page draws the terminal on a canvas (xterm.js), so the test reads what the app sends:
a script injected before the page's own records the websocket's terminal output, and the
test looks for the board in it, presses ``4`` and waits for the move to show. With
``C4TUI_SERVE_SCREENSHOT=path`` it also saves the page (docs/img/serve.png is made so).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync
from textual import messages
from waiting import wait_until

from c4tui.app import C4App
from c4tui.app.messages import CursorMoved
from c4tui.app.session.crash import crash_dir
from c4tui.serve import app_argv, app_command, make_server
from c4tui.serve.guards import (
    TOKEN_ENV,
    HostCheck,
    check_token,
    clamp_size,
    is_local,
    origin_ok,
    scrub_token,
)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BROWSER_INSTALL = "sudo apt-get install chromium chromium-driver"
#: The first session may load the engine's kernels (or compile them on a cold cache).
PAGE_TIMEOUT = 120.0
#: How long a dropped session may take to be gone: the server's 3 s of grace, then a kill.
REAP_TIMEOUT = 30.0
TOKEN = "test-token-0123456789abcdef"

# Records every message of every websocket the page opens, as text, in window.__c4out.
CAPTURE_JS = r"""
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder("utf-8");
  window.__c4out = [];
  function record(data) {
    if (typeof data === "string") { window.__c4out.push(data); return; }
    if (data instanceof ArrayBuffer) {
      window.__c4out.push(decoder.decode(data, {stream: true})); return;
    }
    if (data instanceof Blob) { data.text().then((t) => window.__c4out.push(t)); }
  }
  function Capturing(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (ev) => record(ev.data));
    return ws;
  }
  Capturing.prototype = Native.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Capturing[k] = Native[k];
  window.WebSocket = Capturing;
})();
"""
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]"
                  r"|\x1b[=>78]")
#: The board's column labels, a to g, in one row.
FILES = re.compile(r"a\s+b\s+c\s+d\s+e\s+f\s+g")


# ------------------------------------------------------------------ local by default


@pytest.mark.parametrize(("host", "local"), [
    ("127.0.0.1", True), ("localhost", True), ("127.0.0.2", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("::", False), ("192.168.1.10", False),
    ("example.org", False), ("10.0.0.1", False),
])
def test_only_loopback_counts_as_local(host, local):
    assert is_local(host) is local


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.org"])
def test_a_non_local_host_needs_public(host):
    res = subprocess.run([sys.executable, "-m", "c4tui", "serve", "--host", host],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"c4tui: --host {host} is not a local address")
    assert "--public" in lines[0] and "Traceback" not in res.stderr


def test_public_lets_a_non_local_host_through(monkeypatch):
    """With --public the server is made for that host (its serve() is stubbed: binding
    every interface has no place in a test)."""
    import c4tui.serve as serve_module

    made = []
    real = serve_module.make_server

    def recording(argv, **kw):
        server = real(argv, **kw)
        server.serve = lambda: made.append("served")
        made.append((argv, kw))
        return server

    monkeypatch.setattr(serve_module, "make_server", recording)
    serve_module.serve("0.0.0.0", 8123, public=True, public_url="https://c4.example.org",
                       args=["4453"], token=TOKEN)
    assert made == [([sys.executable, "-m", "c4tui", "open", "4453"],
                     {"host": "0.0.0.0", "port": 8123, "token": TOKEN,
                      "public_url": "https://c4.example.org", "max_sessions": 4}),
                    "served"]
    with pytest.raises(ValueError, match="not a local address"):
        serve_module.serve("0.0.0.0", 8123)
    assert len(made) == 2  # refused before any server was made


def test_each_session_runs_this_pythons_app():
    cmd = app_command(["4453"])
    assert cmd.startswith(sys.executable) and cmd.endswith("-m c4tui open 4453")


# ------------------------------------------------------------------ the guards, unit by unit


@pytest.mark.parametrize(("header", "ok"), [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("LOCALHOST:8000", True),
    ("[::1]:8000", True), ("127.0.0.1:8001", False), ("127.0.0.1", False),
    ("attacker.example:8000", False), ("attacker.example", False), ("", False),
    ("192.168.1.10:8000", False),
])
def test_the_host_header_must_name_this_server(header, ok):
    assert HostCheck("127.0.0.1", 8000)(header) is ok


def test_the_host_check_knows_the_public_url_and_wildcards():
    behind = HostCheck("127.0.0.1", 8000, "https://c4.example.org")
    assert behind("c4.example.org") and behind("c4.example.org:443")
    assert behind("127.0.0.1:8000") and not behind("evil.example.org")
    everywhere = HostCheck("0.0.0.0", 8000)
    assert everywhere("192.168.1.10:8000") and everywhere("[fe80::1]:8000")
    assert not everywhere("192.168.1.10:9000")
    assert not everywhere("rebind.attacker.example:8000")  # a name: not trusted
    assert HostCheck("127.0.0.1", 80)("localhost")  # the browser leaves out port 80


@pytest.mark.parametrize(("origin", "host", "ok"), [
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("http://localhost:8000", "localhost:8000", True),
    ("http://localhost:8000", "127.0.0.1:8000", False),
    ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # another local app's page
    ("https://attacker.example", "127.0.0.1:8000", False),
    ("null", "127.0.0.1:8000", False), (None, "127.0.0.1:8000", False),
    ("", "127.0.0.1:8000", False), ("file://", "127.0.0.1:8000", False),
    ("http://127.0.0.1", "127.0.0.1:80", True),
])
def test_the_websocket_origin_must_be_the_servers_own(origin, host, ok):
    assert origin_ok(origin, host, None) is ok


def test_the_origin_may_be_the_public_url():
    assert origin_ok("https://c4.example.org", "127.0.0.1:8000", "https://c4.example.org")
    assert not origin_ok("http://c4.example.org", "127.0.0.1:8000", "https://c4.example.org")


@pytest.mark.parametrize(("width", "height", "size"), [
    ("80", "24", (80, 24)), (132, 50, (132, 50)), ("30000", "30000", (500, 200)),
    ("-5", "0", (10, 5)), (" 90 ", "30", (90, 30)),
])
def test_the_terminal_size_is_clamped(width, height, size):
    assert clamp_size(width, height) == size


@pytest.mark.parametrize(("width", "height", "what"), [
    ("abc", "24", "width"), ("80", "2.5", "height"), (None, 24, "width"),
    (True, 24, "width"), ("80", "9" * 5000, "height"), (80, [24], "height"),
])
def test_a_size_that_is_no_number_is_refused(width, height, what):
    with pytest.raises(ValueError, match=f"^{what} must be a whole number of cells"):
        clamp_size(width, height)


def test_a_given_token_must_be_long_and_url_safe():
    assert check_token(TOKEN) == TOKEN
    for bad in ("short", "with space in it 0123456789", "x" * 15, "ä" * 20):
        with pytest.raises(ValueError, match="at least 16 characters") as err:
            check_token(bad)
        assert bad not in str(err.value)  # a secret is not echoed


@pytest.mark.parametrize(("host", "public_url", "url"), [
    ("127.0.0.1", None, "http://127.0.0.1:8000/"), ("::1", None, "http://[::1]:8000/"),
    ("127.0.0.1", "https://c4.example.org/", "https://c4.example.org/"),
])
def test_the_url_to_open_carries_the_token(host, public_url, url):
    server = make_server(app_argv([]), host=host, port=8000, token=TOKEN,
                         public_url=public_url)
    assert server.start_url == f"{url}?token={TOKEN}"


def test_the_access_log_hides_the_token():
    record = logging.LogRecord("aiohttp.access", logging.INFO, __file__, 1,
                               '%s "%s"', ("127.0.0.1", f"GET /?token={TOKEN}&x=1"), None)
    assert scrub_token(record)
    assert record.getMessage() == '127.0.0.1 "GET /?token=[secret]&x=1"'


# ------------------------------------------------------------------ real servers, hostile clients


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A ``c4tui serve`` process this test started, and its output, read by a thread."""

    def __init__(self, *args: str, token: str | None = TOKEN) -> None:
        self.port = _free_port()
        env = dict(os.environ)
        env.pop(TOKEN_ENV, None)
        if token is not None:
            env[TOKEN_ENV] = token
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "c4tui", "serve", "--port", str(self.port), *args],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.started = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.started.wait(60):
            self.stop()
            raise AssertionError(f"c4tui serve did not start in 60 s: {self.output}")
        found = re.search(r"open (http://\S+\?token=(\S+))", self.lines[0])
        assert found, self.lines
        self.start_url, self.token = found.groups()
        self.sessions: set[int] = set()  # every app pid seen, for the clean-up

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)
            if "open http" in line:
                self.started.set()
        self.started.set()  # it exited: the waiter looks at the output

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def children(self) -> set[int]:
        """The server's child processes: one app per live session."""
        kids = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rpartition(")")[2].split()[1]) == self.proc.pid:
                    kids.add(int(entry.name))
        self.sessions |= kids
        return kids

    def wait_children(self, count: int, timeout: float = 60.0) -> set[int]:
        kids: set[int] = set()

        def counted() -> bool:
            nonlocal kids
            kids = self.children()
            return len(kids) == count

        wait_until(counted, timeout, f"{count} session processes",
                   detail=lambda: f"saw {kids}")
        return kids

    def get(self, path: str, headers: dict[str, str] | None = None,
            ) -> tuple[int, str, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", path, headers=headers or {})
            res = conn.getresponse()
            return res.status, res.read().decode("utf-8", "replace"), res
        finally:
            conn.close()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, query: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/ws?token={self.token}{query}"

    def stop(self) -> None:
        """SIGTERM the server (it reaps its sessions), then make sure of it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in self.sessions:  # a session that outlived the server: the test fails,
            if _alive(pid):        # but leaves no process behind
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass


def _alive(pid: int) -> bool:
    """Whether ``pid`` is still in the process table: running, stopped, or a zombie (a
    process that exited but that nobody waited for counts: it was not reaped)."""
    return Path(f"/proc/{pid}").exists()


def _wait_gone(pid: int, timeout: float = REAP_TIMEOUT) -> None:
    wait_until(lambda: not _alive(pid), timeout, f"session process {pid} to be gone")


@pytest.fixture(scope="module")
def served():
    """One server for the guard tests: a known token, one session at most."""
    server = Served("--max-sessions", "1")
    try:
        yield server
    finally:
        server.stop()


def _ws(url: str, origin: str | None, action=None):
    """Open a websocket with aiohttp; the handshake's HTTP status if refused, else what
    ``action(ws)`` returns."""
    import aiohttp

    async def run():
        async with aiohttp.ClientSession() as client:
            headers = {"Origin": origin} if origin else {}
            try:
                async with client.ws_connect(url, headers=headers, autoping=False) as ws:
                    return await action(ws) if action else "open"
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    return asyncio.run(run())


def _raw_ws(served: Served, query: str = "&width=80&height=24") -> socket.socket:
    """A websocket opened by hand on a raw socket, so that the test can drop it without
    a closing handshake (as a crashed browser or a lost network does)."""
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?token={served.token}{query} HTTP/1.1\r\n"
                  f"Host: 127.0.0.1:{served.port}\r\nOrigin: {served.origin}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _read_some(sock: socket.socket, count: int = 1000, timeout: float = PAGE_TIMEOUT) -> None:
    """Read until the app has sent ``count`` bytes (it is running), within ``timeout``."""
    sock.settimeout(timeout)
    got = 0
    end = time.monotonic() + timeout
    while got < count:
        assert time.monotonic() < end, "the session sent nothing"
        chunk = sock.recv(65536)
        assert chunk, "the session closed"
        got += len(chunk)


def test_the_printed_url_carries_a_new_random_token():
    server = Served(token=None)
    try:
        assert re.fullmatch(rf"http://127\.0\.0\.1:{server.port}/\?token=[\w-]{{40,}}",
                            server.start_url)
        status, body, res = server.get(server.start_url.split(str(server.port), 1)[1])
        assert status == 200 and ">c4tui<" in body
        cookie = res.getheader("Set-Cookie")
        assert f"c4tui-token-{server.port}={server.token}" in cookie
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert server.get(f"/?token={TOKEN}")[0] == 403
    finally:
        server.stop()
    # the access log shows the requests, but not the token (rich wraps long lines)
    assert len(server.lines) > 1
    assert server.token not in "".join(line.strip() for line in server.lines[1:])


@pytest.mark.parametrize("path", ["/", "/static/js/textual.js", "/download/x"])
@pytest.mark.parametrize("token", [None, "wrong-token-0123456789", TOKEN[:-1]])
def test_a_request_without_the_token_gets_403(served, path, token):
    query = "" if token is None else f"?token={token}"
    status, body, res = served.get(path + query)
    assert status == 403
    assert body == ("c4tui serve: a valid token is needed: open the URL with ?token= that "
                    "c4tui serve printed at start\n")
    assert res.getheader("Content-Type").startswith("text/plain")


def test_the_token_works_in_the_query_or_the_cookie(served):
    assert served.get(f"/?token={TOKEN}")[0] == 200
    assert served.get("/static/js/textual.js",
                      {"Cookie": f"c4tui-token-{served.port}={TOKEN}"})[0] == 200
    assert served.get("/static/js/textual.js",
                      {"Cookie": f"c4tui-token-{served.port + 1}={TOKEN}"})[0] == 403


@pytest.mark.parametrize("host", ["attacker.example", "127.0.0.1.nip.io:{port}",
                                  "attacker.example:{port}", "127.0.0.1:1"])
def test_a_foreign_host_header_is_refused(served, host):
    """DNS rebinding: a page whose host name now resolves to 127.0.0.1 sends its own name."""
    host = host.format(port=served.port)
    status, body, _ = served.get(f"/?token={TOKEN}", {"Host": host})
    assert status == 403 and body.startswith(f"c4tui serve: the Host {host!r} is not this")


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}"])
def test_the_local_names_of_the_server_are_accepted(served, host):
    status, body, _ = served.get(f"/?token={TOKEN}", {"Host": host.format(port=served.port)})
    assert status == 200
    # the page's websocket goes back to the address the browser used (same origin)
    assert f'data-session-websocket-url="ws://{host.format(port=served.port)}/ws"' in body


@pytest.mark.parametrize("origin", ["https://attacker.example", "http://127.0.0.1:1",
                                    "http://localhost:{port}", "null", None])
def test_a_websocket_from_another_origin_is_refused(served, origin):
    origin = origin and origin.format(port=served.port)
    assert _ws(served.ws_url(), origin) == 403
    assert served.children() == set()  # no app was started


def test_a_websocket_without_the_token_is_refused(served):
    url = f"http://127.0.0.1:{served.port}/ws"
    assert _ws(url, served.origin) == 403
    assert _ws(url + "?token=wrong-token-0123456789", served.origin) == 403


@pytest.mark.parametrize("query", ["&width=abc", "&height=1e9", "&width="])
def test_a_size_that_is_no_number_gets_400(served, query):
    assert _ws(served.ws_url(query), served.origin) == 400
    assert served.children() == set()


def test_sessions_are_bounded_clamped_and_reaped(served):
    """A huge size is clamped; a session over --max-sessions is refused and says why; the
    process of a dropped socket is gone (reaped), and its slot is free again."""
    sock = _raw_ws(served, "&width=30000&height=30000")
    try:
        (pid,) = served.wait_children(1)
        _read_some(sock)  # the app runs (its environment is its own, not the forked one)
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert b"COLUMNS=500" in environ and b"ROWS=200" in environ
        assert not any(v.startswith(TOKEN_ENV.encode()) for v in environ)

        async def refused(ws):
            first = await ws.receive()
            closing = await ws.receive()
            return first.data, closing.type.name, ws.close_code

        data, kind, code = _ws(served.ws_url(), served.origin, refused)
        assert b"all 1 sessions are in use (--max-sessions)" in data
        assert (kind, code) == ("CLOSE", 1013)
        assert served.children() == {pid}
    finally:
        sock.close()  # dropped: no closing handshake
    _wait_gone(pid)
    assert served.children() == set()

    async def works(ws):
        """The slot is free again; malformed messages and a huge resize are dropped or
        clamped, and the session goes on (it still answers a ping)."""
        first = await ws.receive(timeout=PAGE_TIMEOUT)
        for junk in ("not json", "{}", "[]", '["resize", {"width": "x"}]', "[1, 2]",
                     '["resize", {"width": 99999, "height": 99999}]', '["stdin", 5]'):
            await ws.send_str(junk)
        await ws.send_str('["ping", "still there"]')
        end = time.monotonic() + PAGE_TIMEOUT
        while time.monotonic() < end:
            msg = await ws.receive(timeout=PAGE_TIMEOUT)
            if msg.type.name == "TEXT" and "still there" in msg.data:
                return first.type.name, msg.data
            assert msg.type.name == "BINARY", msg
        return "no pong"

    assert _ws(served.ws_url("&width=80&height=24"), served.origin, works) == (
        "BINARY", '["pong", "still there"]')
    served.wait_children(0, REAP_TIMEOUT)


def test_a_stuck_session_is_killed_and_waited_for(served):
    """An app that no longer reads its input (stopped, here) cannot quit when asked: the
    server kills its process group when the socket drops, and waits for it."""
    sock = _raw_ws(served)
    try:
        (pid,) = served.wait_children(1)
        _read_some(sock)
        os.kill(pid, signal.SIGSTOP)
    finally:
        sock.close()
    _wait_gone(pid)
    assert served.children() == set()


def test_stopping_the_server_ends_its_sessions():
    server = Served()
    try:
        sock = _raw_ws(server)
        (pid,) = server.wait_children(1)
        _read_some(sock)
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(REAP_TIMEOUT)
        _wait_gone(pid, 5)  # reaped before the server exited
        sock.close()
    finally:
        server.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_server_leaves_no_session_behind():
    """SIGKILL gives the server no chance to reap: the kernel kills its apps instead."""
    server = Served()
    try:
        sock = _raw_ws(server)
        (pid,) = server.wait_children(1)
        _read_some(sock)
        server.proc.kill()
        server.proc.wait(REAP_TIMEOUT)
        _wait_gone(pid)
        sock.close()
    finally:
        server.stop()


def test_a_bad_token_or_session_count_gets_one_line():
    for args, what in ((["--token", "short"], "--token (or $C4TUI_SERVE_TOKEN): must be at"),
                       (["--max-sessions", "0"], "--max-sessions 0: out of range (1 to 64)")):
        res = subprocess.run([sys.executable, "-m", "c4tui", "serve", *args],
                             capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert res.returncode == 2, res.stderr
        assert res.stderr.count("\n") == 1 and what in res.stderr, res.stderr
        assert "short" not in res.stderr.replace("--token", "")


def test_the_page_is_textual_serves_but_for_the_font():
    """c4tui/serve/app_index.html is textual-serve's page with its one external link
    (fonts.googleapis.com) replaced by @font-face rules naming textual-serve's own copy of
    the font: when textual-serve changes its page, this says the copy must follow."""
    import textual_serve

    from c4tui.serve.server import TEMPLATES

    theirs = (Path(textual_serve.__file__).parent / "templates" / "app_index.html").read_text()
    ours = (TEMPLATES / "app_index.html").read_text()
    link = re.compile(r"\n    <link\s+rel=\"stylesheet\"\s+href=\"https://fonts[^\n]*\n    />")
    block = re.compile(r"\n    <!-- c4tui: .*?</style>", re.S)
    assert len(link.findall(theirs)) == 1 and len(block.findall(ours)) == 1
    assert link.sub("", theirs) == block.sub("", ours)
    assert "fonts/RobotoMono-VariableFont_wght.ttf" in ours
    font = Path(textual_serve.__file__).parent / "static" / "fonts"
    assert (font / "RobotoMono-VariableFont_wght.ttf").is_file()


def test_the_served_page_names_no_other_host(served):
    """Without a browser: every URL in the page the server hands out is its own."""
    status, body, _ = served.get(f"/?token={TOKEN}")
    assert status == 200
    # (an svg's xmlns names its namespace: a URL nothing requests)
    urls = re.findall(r"""(?<!xmlns=")(?:https?|wss?)://[^\s"'<>)]+""", body)
    assert urls, body
    assert {urlsplit(u).netloc for u in urls} == {f"127.0.0.1:{served.port}"}, urls


# ------------------------------------------------------------------ a session closed at once


class ClosedAtOnce(C4App):
    """The app as a served session closed at once (or reloaded) runs it: the end comes
    while its first mount runs. ``how``: ``exit`` (the app's own ``exit()``, which makes
    Textual mount nothing more) or ``quit`` (the web driver's answer to the server's
    "quit": an ``ExitApp`` message, after which the main screen is pruned as it mounts)."""

    def __init__(self, how: str) -> None:
        super().__init__(Position.from_moves("4453"), engine=False)
        self.how = how

    def on_mount(self) -> None:
        super().on_mount()
        if self.how in ("exit", "cursor"):
            self.exit()
        else:
            self.post_message(messages.ExitApp())
        if self.how == "cursor":  # the board's first cursor, as it mounts, comes after
            self.screen_stack[0].post_message(CursorMoved(3))


@pytest.mark.parametrize("how", ["exit", "quit", "cursor"])
@sync
async def test_an_app_closed_before_its_first_frame_exits_quietly(how):
    """Bug (issue 33): ``NoMatches: No nodes match '#analysis-box'`` in the main screen's
    on_mount, a crash file each time; now the app ends cleanly and writes none. The same
    with the board's cursor message handled after the screen was pruned (``No nodes match
    'AnalysisPanel'``, once in a clean clone's run of the served sessions' fuzz test)."""
    app = ClosedAtOnce(how)
    async with app.run_test(size=(80, 24)):
        pass  # (an exception in a handler would be raised here)
    assert app.return_code in (0, None)  # None: ended by ExitApp, as c4tui open's 0
    assert app.session.crash is None
    assert not crash_dir().exists() or not list(crash_dir().iterdir())
    assert not app.is_running


# ------------------------------------------------------------------ the real browser


def _browser_or_skip():
    """selenium's webdriver module, or skip (fail in CI) saying what is missing and how to
    install it."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    try:
        from selenium import webdriver
    except ImportError:
        missing.append("selenium (pip install -e '.[test]')")
        webdriver = None
    if missing:
        why = (f"no browser to test with: {', '.join(missing)} missing; "
               f"`{BROWSER_INSTALL}` installs Debian's (CI's .ci/run does)")
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser test: " + why)
        pytest.skip(why)
    return webdriver


def _screen_text(driver, start: int = 0) -> str:
    chunks = driver.execute_script("return window.__c4out || [];")
    return ANSI.sub("", "".join(chunks[start:]))


def _wait_text(driver, pattern: re.Pattern, start: int, timeout: float, what: str) -> None:
    wait_until(lambda: pattern.search(_screen_text(driver, start)), timeout, what,
               detail=lambda: "the page's last output:\n" + _screen_text(driver, start)[-1500:])


@contextlib.contextmanager
def _chromium(monkeypatch):
    """A headless chromium through chromedriver that may reach only this machine, and logs
    every request its pages make (Chrome's performance log: DevTools' Network events)."""
    webdriver = _browser_or_skip()
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium must not try to fetch a driver
    profile = tempfile.mkdtemp(prefix="c4tui-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1400,900",
                 # only this machine: a request for another host fails at once (it is
                 # still in the performance log, which is what the page test reads)
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.set_page_load_timeout(60)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE_JS})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


#: The browser's own pages (its new-tab page loads while chromium starts): not the web's.
BROWSER_PAGES = ("chrome:", "chrome-untrusted:", "devtools:")


def _requested_urls(driver) -> list[str]:
    """Every URL web content requested or opened a websocket to since the last call (the
    page, its scripts, styles, fonts, images, fetches, websockets), from DevTools'
    Network events; the requests of the browser's own pages are left out."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            if not params.get("documentURL", "").startswith(BROWSER_PAGES):
                urls.append(params["request"]["url"])
        elif message["method"] == "Network.webSocketCreated":
            urls.append(params["url"])
    return urls


def test_the_workstation_plays_in_a_headless_browser(served, monkeypatch):
    from selenium.webdriver.common.action_chains import ActionChains

    with _chromium(monkeypatch) as driver:
        driver.get(served.start_url)  # the token comes with the first page
        # textual-serve's page, named for the app (waited for: under load, a clean clone's
        # run once read the document while it was still empty)
        wait_until(lambda: ">c4tui<" in driver.page_source, PAGE_TIMEOUT, "the page")
        # the board: the app's first frames carry its column labels
        _wait_text(driver, FILES, 0, PAGE_TIMEOUT, "the board")
        assert "White" in _screen_text(driver)  # White to move on the empty board
        assert "Black" not in _screen_text(driver)
        # the engine has loaded and analysed the empty board: the frames that follow are
        # the move's
        _wait_text(driver, re.compile(r"wins in 21"), 0, PAGE_TIMEOUT, "the empty board's value")
        shot = os.environ.get("C4TUI_SERVE_SCREENSHOT")
        before = len(driver.execute_script("return window.__c4out;"))
        # xterm.js reads keys from a hidden textarea, which chromium (150) will not let
        # selenium type into ("not interactable"): focus it, then type as a user does.
        driver.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
        ActionChains(driver).send_keys("4").perform()  # play column 4: d1
        _wait_text(driver, re.compile(r"Black"), before, 30, "Black to move after the key 4")
        if shot:
            _wait_text(driver, re.compile(r"wins in 20"), before, 60, "the analysis after d1")
            driver.save_screenshot(shot)


def test_the_page_requests_nothing_from_another_host(monkeypatch):
    """Bug (issue 33): textual-serve's page loaded its font from fonts.googleapis.com, so
    every visitor's browser told Google, and offline the page degraded. Every URL the page
    and its scripts request, the websocket included, is this server's now; the font is
    there (served from /static)."""
    server = Served()
    try:
        with _chromium(monkeypatch) as driver:
            driver.get(server.start_url)
            _wait_text(driver, FILES, 0, PAGE_TIMEOUT, "the board")  # the websocket ran
            fonts = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "document.fonts.ready.then(() => done(Array.from(document.fonts)"
                "  .filter((f) => f.status === 'loaded').map((f) => f.family)));")
            urls = _requested_urls(driver)
    finally:
        server.stop()
    own = f"127.0.0.1:{server.port}"
    assert any(u.startswith(f"ws://{own}/ws") for u in urls), urls  # the log is complete
    foreign = [u for u in urls
               if not u.startswith(("data:", "blob:")) and urlsplit(u).netloc != own]
    assert foreign == [], f"the page requested other hosts: {foreign}"
    assert any("/static/fonts/RobotoMono" in u for u in urls), urls
    assert "Roboto Mono" in {family.strip('"') for family in fonts}, fonts  # loaded
