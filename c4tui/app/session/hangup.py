"""Exit when the terminal goes away, even when no SIGHUP arrives.

``make run`` leaves make as the terminal's job: when the window closes, the app may get no
SIGHUP, and Textual's input thread then spins on the dead terminal at full CPU. A daemon
thread checks twice a second that the terminal still answers (``tcgetattr`` fails with
EIO once it has hung up) and that the parent process is still the one that started us.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import termios
import threading
from collections.abc import Callable

#: Seconds between checks, and the grace before a hard exit if the clean one hangs.
INTERVAL = 0.5
GRACE = 2.0


def terminal_alive(fd: int) -> bool:
    """False once the terminal on ``fd`` has hung up (or ``fd`` was never one)."""
    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError):
        return False
    return True


class TerminalWatch:
    """Calls ``on_hangup`` (from a thread) when the terminal or the parent goes; if the
    process is still alive ``GRACE`` seconds later, it exits hard (status 129, SIGHUP's)."""

    def __init__(self, on_hangup: Callable[[], None]) -> None:
        self._on_hangup = on_hangup
        self._stop = threading.Event()
        self._fired = False
        stream = sys.__stdin__
        fd = stream.fileno() if stream is not None else -1
        self._fd = fd if fd >= 0 and os.isatty(fd) else None
        self._parent = os.getppid()

    def start(self) -> None:
        """Watch (nothing to watch without a terminal, e.g. in tests); handle SIGHUP."""
        try:  # in the event loop, so the handler may touch the app (and wakes the loop)
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hangup)
        except (RuntimeError, NotImplementedError, ValueError):
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGHUP, lambda _sig, _frame: self.hangup())
        if self._fd is not None:
            threading.Thread(target=self._run, name="c4-terminal-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def hangup(self) -> None:
        """The terminal is gone: exit cleanly, and for sure after the grace period."""
        if self._fired:
            return
        self._fired = True
        timer = threading.Timer(GRACE, os._exit, args=(129,))
        timer.daemon = True
        timer.start()
        self._on_hangup()

    def _run(self) -> None:
        assert self._fd is not None
        while not self._stop.wait(INTERVAL):
            if not terminal_alive(self._fd) or os.getppid() != self._parent:
                self.hangup()
                return
