"""The session's autosave: the game as it is now, so that a crash loses nothing.

While the workstation runs, every change of the session (a move, a take-back, a
comment, a variation, a game opened, the viewed move, the current file) is written to
``autosave/session-<pid>-<random>.c4g`` in the user state directory (``$XDG_STATE_HOME/c4tui``,
by default ``~/.local/state/c4tui``). The file is an ordinary game file (variations,
comments and headers; ``c4tui`` can open it as any other) with a few ``C4tuiSession...``
headers for the rest of the session: the line and move viewed, the file name, whether
the game had unsaved changes. Writes are atomic (:func:`c4tui.atomicfile.atomic_write`),
in a background thread (the UI never waits for a disk), the newest state only; a game
larger than a game file may be (1 MiB) is not written, and the user is told once.

A clean quit removes the file. A crash, a closed terminal or a kill leaves it, and the
next ``c4tui`` offers to restore it (:func:`find_orphan`). Each session holds an
``flock`` on its ``.lock`` file while it runs, so two workstations open at once never
take each other's session for a crashed one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from c4tui import gamefile
from c4tui.atomicfile import atomic_write

from .session_file import Session

#: A session that has never been restored nor declined is set aside under this name.
DECLINED = "declined.c4g"


def autosave_dir() -> Path:
    """``autosave`` in the user state directory."""
    return Path(platformdirs.user_state_dir("c4tui")) / "autosave"


class Autosave:
    """This session's autosave file and the thread that writes it.

    :meth:`start` it, :meth:`submit` each new state (the UI thread formats it; the
    thread writes the newest one), :meth:`flush` on a crash (written at once, in the
    caller's thread), :meth:`remove` on a clean quit, :meth:`close` otherwise (the file
    stays for the next start). ``error`` holds the last write's one-line failure.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or autosave_dir()
        # the pid says whose it is; the random part keeps a reused pid off an orphan's name
        self.path = self.directory / f"session-{os.getpid()}-{secrets.token_hex(3)}.c4g"
        self.error: str | None = None
        self.writes = 0  #: files written (for tests and the figures)
        self._lock_fd: int | None = None
        self._cond = threading.Condition()
        self._io = threading.Lock()  # one write at a time, never an older after a newer
        self._pending: tuple[int, bytes] | None = None
        self._seq = 0
        self._written = 0
        self._stop = False
        self._removed = False
        self._thread: threading.Thread | None = None

    def start(self) -> str | None:
        """Take the session's lock and start the writer; a one-line warning if the
        directory cannot be used (then nothing is autosaved)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._lock_fd = _lock(self.path.with_suffix(".lock"))
        except OSError as exc:
            self._stop = True
            return f"autosave: {self.directory}: cannot use it ({exc.strerror or exc}); " \
                   "the session is not autosaved"
        if self._lock_fd is None:  # cannot happen with a fresh random name; but never wait
            self._stop = True
            return f"autosave: {self.path.with_suffix('.lock')} is held by another process"
        self._thread = threading.Thread(target=self._run, name="c4-autosave", daemon=True)
        self._thread.start()
        return None

    @property
    def active(self) -> bool:
        """Started, and not yet closed or removed."""
        return self._thread is not None and not self._stop

    def submit(self, text: str) -> None:
        """Have ``text`` written soon (replacing any state not written yet)."""
        data = text.encode("utf-8")
        with self._cond:
            if self._stop:
                return
            self._seq += 1
            self._pending = (self._seq, data)
            self._cond.notify()

    def flush(self, text: str | None = None) -> bool:
        """Write ``text`` (default: the state waiting for the thread) now, in this
        thread; True if the file holds the newest state afterwards."""
        with self._cond:
            if self._removed or self._lock_fd is None:
                return False
            if text is not None:
                self._seq += 1
                self._pending = (self._seq, text.encode("utf-8"))
            pending, self._pending = self._pending, None
        if pending is not None:
            self._write(*pending)
        return self.error is None

    def close(self) -> None:
        """Stop the writer after it has written the newest state; the file stays."""
        self.flush()
        self._shutdown()

    def remove(self) -> None:
        """A clean quit: stop the writer and remove the file."""
        with self._cond:
            self._removed = True
            self._pending = None
        self._shutdown()
        with self._io:
            self.path.unlink(missing_ok=True)
        self._unlock(remove=True)

    def _shutdown(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        if not self._removed:
            self._unlock(remove=False)

    def _unlock(self, remove: bool) -> None:
        if self._lock_fd is None:
            return
        if remove:  # while still held: a starting workstation never sees it half gone
            with contextlib.suppress(OSError):
                self.path.with_suffix(".lock").unlink()
        os.close(self._lock_fd)
        self._lock_fd = None

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._stop:
                    self._cond.wait()
                if self._pending is None:
                    return
                pending, self._pending = self._pending, None
            self._write(*pending)

    def _write(self, seq: int, data: bytes) -> None:
        with self._io:
            if seq <= self._written or self._removed:
                return
            if len(data) > gamefile.MAX_FILE_BYTES:
                self.error = (f"autosave: the game is larger than a game file may be "
                              f"({len(data):,} bytes); the last smaller state is kept")
                return
            try:
                atomic_write(self.path, data, overwrite=True)
            except OSError as exc:
                self.error = f"autosave: {self.path}: cannot write ({exc.strerror or exc})"
                return
            self._written = seq
            self.writes += 1
            self.error = None


def _lock(path: Path) -> int | None:
    """An open descriptor of ``path`` holding an exclusive ``flock``; None if another
    process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


@dataclass
class Orphan:
    """The autosave of a session that did not quit cleanly, claimed by this process
    (its lock is held until :meth:`discard` or :meth:`set_aside`)."""

    path: Path
    session: Session
    _lock_fd: int | None = None

    def describe(self) -> str:
        """``game.c4g, 14 moves, at move 9 (unsaved changes), autosaved 2026-11-26 06:10``"""
        what = self.session.file.name if self.session.file else "a game not saved to a file"
        parts = [what, f"{self.session.moves()} moves", f"at move {self.session.ply}"]
        if self.session.changed:
            parts.append("unsaved changes")
        if self.session.saved_at:
            parts.append(f"autosaved {self.session.saved_at}")
        return ", ".join(parts)

    def discard(self) -> None:
        """Restored (the new session autosaves it again): remove the file."""
        self.path.unlink(missing_ok=True)
        self._release()

    def set_aside(self) -> Path:
        """Not restored: keep it as ``declined.c4g`` (replacing the one declined before),
        in case the answer was a slip. Returns that path."""
        target = self.path.with_name(DECLINED)
        try:
            os.replace(self.path, target)
        except OSError:
            target = self.path
        self._release()
        return target

    def _release(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                self.path.with_suffix(".lock").unlink()
            os.close(self._lock_fd)
            self._lock_fd = None


#: A lock file older than this may be removed when no session holds it (a newer one may
#: belong to a workstation between creating its lock file and taking the lock).
STALE_LOCK_SECONDS = 60.0


def _remove_stale_locks(directory: Path) -> None:
    """Remove the lock files of sessions that ended without a clean quit and left no
    autosave (killed with nothing to save): each session makes one, so they would pile
    up. Held locks, recent ones and those beside an autosave are kept."""
    try:
        locks = list(directory.glob("session-*.lock"))
    except OSError:
        return
    now = time.time()
    for lock in locks[:10_000]:  # bounded, whatever a directory holds
        with contextlib.suppress(OSError):
            if lock.with_suffix(".c4g").exists() or now - lock.stat().st_mtime < STALE_LOCK_SECONDS:
                continue
            fd = _lock(lock)
            if fd is None:  # a workstation running now
                continue
            try:
                lock.unlink()
            finally:
                os.close(fd)


def find_orphan(directory: Path | None = None,
                warn: Callable[[str], None] | None = None) -> Orphan | None:
    """The newest autosave whose session is not running, claimed (its lock taken) so that
    no other workstation offers it too; None if there is none. An autosave that cannot be
    read is set aside with a warning (``warn``), never offered again, never deleted."""
    directory = directory or autosave_dir()
    _remove_stale_locks(directory)
    try:
        candidates = sorted(directory.glob("session-*.c4g"),
                            key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for path in candidates:
        try:
            fd = _lock(path.with_suffix(".lock"))
        except OSError:
            continue
        if fd is None:  # a workstation running now
            continue
        if not path.exists():  # restored or removed by another process meanwhile
            os.close(fd)
            continue
        try:
            session = Session.from_game(gamefile.load_game(path))
        except gamefile.GameSizeError:
            os.close(fd)  # a session of another board size: offered when that size runs
            continue
        except gamefile.GameFileError as exc:
            bad = path.with_suffix(".unreadable")
            with contextlib.suppress(OSError):
                os.replace(path, bad)
            os.close(fd)
            if warn is not None:
                warn(f"autosave: {exc} (kept as {bad})")
            continue
        return Orphan(path, session, fd)
    return None
