"""The guards of ``c4tui serve`` (docs/serve.md, "What protects the user"): the token,
the ``Host`` and ``Origin`` checks, the terminal sizes a page may ask for, the access log's
scrubbing, and a session process's death with the server. Plain Python: the server
(:mod:`c4tui.serve.server`) applies them to each request.
"""

from __future__ import annotations

import ctypes
import ipaddress
import logging
import os
import re
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

#: The environment variable that may carry the token (safer than --token: the command
#: line of a process is visible to every local user, its environment is not).
TOKEN_ENV = "C4TUI_SERVE_TOKEN"
#: A token given by the user: long enough not to be guessed, and safe in a URL as is.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{16,}")
#: The terminal size a session may ask for, in cells: (min, max) per axis. A page asking
#: for 30000x30000 once grew its app to 5.8 GB.
WIDTH_RANGE = (10, 500)
HEIGHT_RANGE = (5, 200)

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
