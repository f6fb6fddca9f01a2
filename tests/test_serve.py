"""``c4tui serve``: local by default, and the workstation really works in a browser.

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

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import c4tui.cli  # noqa: F401  (first: importing c4tui.serve alone is a circular import)
from c4tui.serve import app_command, is_local

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BROWSER_INSTALL = "sudo apt-get install chromium chromium-driver"
#: The first session may load the engine's kernels (or compile them on a cold cache).
PAGE_TIMEOUT = 120.0

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
    """With --public the server is made for that host (a stand-in records it: binding
    every interface has no place in a test)."""
    import textual_serve.server

    made = []

    class Recorder:
        def __init__(self, command, **kw):
            made.append((command, kw))

        def serve(self):
            made.append("served")

    monkeypatch.setattr(textual_serve.server, "Server", Recorder)
    from c4tui.serve import serve

    serve("0.0.0.0", 8123, public=True, public_url="https://c4.example.org", args=["4453"])
    assert made == [(app_command(["4453"]), {"host": "0.0.0.0", "port": 8123,
                                             "title": "c4tui",
                                             "public_url": "https://c4.example.org"}),
                    "served"]
    with pytest.raises(ValueError, match="not a local address"):
        serve("0.0.0.0", 8123)
    assert len(made) == 2  # refused before any server was made


def test_each_session_runs_this_pythons_app():
    cmd = app_command(["4453"])
    assert cmd.startswith(sys.executable) and cmd.endswith("-m c4tui open 4453")


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"c4tui serve exited: {proc.stdout.read()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"c4tui serve did not listen on port {port} in {timeout} s")


def _screen_text(driver, start: int = 0) -> str:
    chunks = driver.execute_script("return window.__c4out || [];")
    return ANSI.sub("", "".join(chunks[start:]))


def _wait_text(driver, pattern: re.Pattern, start: int, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pattern.search(_screen_text(driver, start)):
            return
        time.sleep(0.2)
    tail = _screen_text(driver, start)[-1500:]
    raise AssertionError(f"{what}: not seen within {timeout} s; the page's last output:\n{tail}")


@pytest.fixture
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "serve", "--port", str(port)], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,  # its own process group: the app sessions it starts too
    )
    try:
        _wait_for_port(port, proc, 60)
        yield f"http://127.0.0.1:{port}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the group this test started
            proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_the_workstation_plays_in_a_headless_browser(server, monkeypatch):
    webdriver = _browser_or_skip()
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains

    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium must not try to fetch a driver
    profile = tempfile.mkdtemp(prefix="c4tui-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1400,900",
                 # only this machine: the page's web-font link must not leave it
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.set_page_load_timeout(60)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE_JS})
        driver.get(server)
        assert ">c4tui<" in driver.page_source  # textual-serve's page, named for the app
        # the board: the app's first frames carry its column labels
        _wait_text(driver, FILES, 0, PAGE_TIMEOUT, "the board")
        assert "White" in _screen_text(driver)  # White to move on the empty board
        assert "Black" not in _screen_text(driver)
        time.sleep(1.0)  # let the first frames settle
        shot = os.environ.get("C4TUI_SERVE_SCREENSHOT")
        before = len(driver.execute_script("return window.__c4out;"))
        # xterm.js reads keys from a hidden textarea, which chromium (150) will not let
        # selenium type into ("not interactable"): focus it, then type as a user does.
        driver.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
        ActionChains(driver).send_keys("4").perform()  # play column 4: d1
        _wait_text(driver, re.compile(r"Black"), before, 30, "Black to move after the key 4")
        if shot:
            time.sleep(2.0)  # the analysis of the new position
            driver.save_screenshot(shot)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
