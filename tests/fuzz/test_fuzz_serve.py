"""Fuzzing the guards of ``c4tui serve`` (c4tui/serve/guards.py; docs/serve.md's threat model):
the ``Host`` check against DNS rebinding, the websocket ``Origin`` check, the token's
form and the terminal size a browser asks for.

Wanted: no exception but the documented ValueError; no foreign host, origin or size ever
let through. The real processes are tested in tests/test_serve.py; these are the rules'
edge cases, thousands in ``make fuzz``.

And a real server's sessions opened and closed at once (a reload, a tab closed while the
page loads), one after the other: 5 in ``make test``, 50 in ``make fuzz``. Wanted: every
app ends without a crash file (issue 33: each one died of ``NoMatches '#analysis-box'``
in its first mount, and the files pushed real reports out of the 20 kept).
"""

from __future__ import annotations

import hmac
import string

from fuzzkit import LONG, count, fuzz
from hypothesis import given
from hypothesis import strategies as st

from c4tui.app.session.crash import crash_dir
from c4tui.serve.guards import (
    HEIGHT_RANGE,
    TOKEN_PATTERN,
    WIDTH_RANGE,
    HostCheck,
    check_token,
    clamp_size,
    origin_ok,
)

PORT = 8765
OWN = ("127.0.0.1", "localhost", "[::1]")
#: Names an attacker's page may use: its own names (rebinding), look-alikes of ours.
names = st.one_of(
    st.sampled_from(["attacker.example", "127.0.0.1.attacker.example", "localhost.evil",
                     "evil.localhost.", "127.0.0.2", "0.0.0.0", "[::2]", "2130706433",
                     "127.1", "LOCALHOST", "", " ", "localhost:8765@evil", "[::1", "::1",
                     "xn--localhost", "127.0.0.1%00", "127.0.0.1\t"]),
    st.text(string.ascii_letters + string.digits + ".-:[]@%_", max_size=30),
    st.text(max_size=20),
)
ports = st.one_of(st.just(str(PORT)), st.sampled_from(["", "80", "443", "0", "08765",
                                                       "87650", " 8765", "8765 "]),
                  st.integers(0, 70000).map(str))


def _netloc(host: str, port: str) -> str:
    return f"{host}:{port}" if port else host


@fuzz(fast=300)
@given(names, ports)
def test_a_host_header_is_accepted_only_for_this_server(host, port):
    count("serve: Host header")
    check = HostCheck("127.0.0.1", PORT)
    header = _netloc(host, port)
    accepted = check(header)
    own = header.strip().lower() in {f"{n}:{PORT}" for n in OWN}
    assert accepted == own, header


@fuzz(fast=300)
@given(st.sampled_from(["http", "https", "ws", "file", "chrome-extension", ""]), names, ports,
       st.sampled_from(OWN))
def test_an_origin_is_accepted_only_from_the_page_of_this_host(scheme, host, port, own):
    count("serve: Origin header")
    host_header = f"{own}:{PORT}"
    origin = f"{scheme}://{_netloc(host, port)}" if scheme else _netloc(host, port)
    ok = origin_ok(origin, host_header, None)
    if ok:  # only our own page: http(s) and exactly the host the request went to
        assert scheme in ("http", "https") and _netloc(host, port).lower() == host_header
    assert origin_ok(f"http://{host_header}", host_header, None)  # the own page passes
    assert not origin_ok(None, host_header, None) and not origin_ok("null", host_header, None)


@fuzz(fast=300)
@given(st.one_of(st.text(max_size=80), st.text(string.ascii_letters + string.digits
                                                + "._~-", min_size=0, max_size=40)))
def test_tokens_are_long_and_plain_or_refused_without_echo(token):
    count("serve: token")
    try:
        assert check_token(token) == token
    except ValueError as exc:
        # The refusal never shows the token: it reads the same for any token of its length.
        try:
            check_token("\x00" * len(token))
        except ValueError as same:
            assert str(exc) == str(same)
        assert "\n" not in str(exc)
        assert not TOKEN_PATTERN.fullmatch(token)
    else:
        assert len(token) >= 16 and hmac.compare_digest(token, token)


sizes = st.one_of(st.integers(-10**30, 10**30), st.text(max_size=12),
                  st.sampled_from(["9" * 5000, "1e3", "0x50", " 80", "80.0", "-0", "٨٠",
                                   "nan", ""]),
                  st.none(), st.booleans(), st.floats(allow_nan=True))


@fuzz(fast=300)
@given(sizes, sizes)
def test_terminal_sizes_are_clamped_or_refused(width, height):
    count("serve: terminal size")
    try:
        w, h = clamp_size(width, height)
    except ValueError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 120
        return
    assert WIDTH_RANGE[0] <= w <= WIDTH_RANGE[1] and HEIGHT_RANGE[0] <= h <= HEIGHT_RANGE[1]


#: Sessions opened and closed at once, one after the other.
CYCLES = 50 if LONG else 5


def test_served_sessions_closed_at_once_exit_quietly():
    from test_serve import REAP_TIMEOUT, Served, _raw_ws

    server = Served("--max-sessions", "4")  # the apps inherit this test's state directory
    try:
        for _ in range(CYCLES):
            sock = _raw_ws(server)  # the server's 101: it starts the session's app
            sock.close()  # at once, no closing handshake: the app is asked to quit
            server.wait_children(1)  # its app (Python's start alone takes longer)
            server.wait_children(0, REAP_TIMEOUT)  # ended (or was reaped)
            count("serve: sessions closed at once")
    finally:
        server.stop()
    assert [p.read_text()[:300] for p in crash_dir().glob("crash-*.txt")] == []
    assert "Traceback" not in server.output
    assert server.sessions, "no session's app was ever seen: not a test"
