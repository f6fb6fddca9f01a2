"""The session's safety: the autosave, the restore offer at start, the question before
quitting with unsaved changes, and the crash report (see autosave.py and crash.py).

What counts as *unsaved*: the game tree or headers differ from the game last opened or
saved (or given on the command line). Undoing back to it makes the game saved again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.gamefile.tree import Node

from .autosave import Autosave, Orphan, Session
from .crash import CrashReport, write_crash_report
from .screens import ConfirmScreen
from .screens.confirm import QuitScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


class SessionActions(_Base):
    """Mixed into :class:`C4App`."""

    crash: CrashReport | None = None  #: set when the app died of an exception

    def init_session(self, autosave: Autosave | None, restore: Orphan | None) -> None:
        """``autosave``: where this session is written (None: nowhere, as in most tests);
        ``restore``: a crashed session to offer when the app starts."""
        self.autosave = autosave
        self.restore_offer = restore
        self._saved: tuple[Node, dict[str, str]] = (self.model.root, dict(self.model.headers))
        self._autosaved: tuple[object, ...] = ()
        self._autosave_said: str | None = None

    # ------------------------------------------------------------------ unsaved changes
    @property
    def unsaved(self) -> bool:
        """The game differs from the one last opened or saved (or given at start)."""
        root, headers = self._saved
        return self.model.root is not root or self.model.headers != headers

    def mark_saved(self) -> None:
        """The game as it is now is in a file (opened or saved)."""
        self._saved = (self.model.root, dict(self.model.headers))

    # ------------------------------------------------------------------ the autosave
    def session(self) -> Session:
        """The session as it is now."""
        m = self.model
        return Session(m.root, dict(m.headers), tuple(m.line_path), m.ply, self.current_file,
                       self.unsaved)

    def _session_key(self) -> tuple[object, ...]:
        # the tree is immutable: an edit makes a new root, compared by its id (the root
        # itself is kept in the key so that the id cannot be reused; never compared)
        m = self.model
        return (id(m.root), m.root, m.line_path, m.ply, tuple(m.headers.items()),
                self.current_file, self.unsaved)

    def autosave_tick(self) -> None:
        """Hand the session to the autosave if it changed (from :meth:`C4App.show`)."""
        autosave = self.autosave
        if autosave is None or not autosave.active:
            return
        key = self._session_key()
        if key[0] != self._autosaved[0] or key[2:] != self._autosaved[2:]:
            self._autosaved = key
            autosave.submit(self.session().to_text())
        if autosave.error != self._autosave_said:  # a failure is said once, not per move
            self._autosave_said = autosave.error
            if autosave.error:
                self._warn(autosave.error)

    def start_session(self) -> None:
        """At mount: start the autosave, then offer a crashed session, if any."""
        # the state as given at start is not written: there is nothing to lose yet
        self._autosaved = self._session_key()
        if self.autosave is not None:
            self._warn(self.autosave.start())
        orphan, self.restore_offer = self.restore_offer, None
        if orphan is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.restore(orphan)
            else:
                kept = orphan.set_aside()
                self.say(f"not restored (kept as {kept} until the next one is declined)")

        self.push_screen(ConfirmScreen(
            f"c4tui did not quit cleanly last time. Restore that session?\n"
            f"{orphan.describe()}"), done)

    def restore(self, orphan: Orphan) -> None:
        """Load a crashed session: its game (undoable), line, viewed move and file."""
        s = orphan.session
        self.model.load(s.root, s.headers)
        try:
            self.model.goto_path(s.line_path)
        except IndexError:
            pass
        self.model.goto(s.ply)
        self.current_file = s.file
        if not s.changed:  # it was the file's game: saved as far as the user knows
            self.mark_saved()
        orphan.discard()  # from now on it is this session's autosave that keeps it
        self.show(moved=True)
        self.say(f"restored the session: {orphan.describe()}")

    # ------------------------------------------------------------------ quitting
    def quit_asks(self) -> bool:
        """``q`` with unsaved changes: ask first (True: asked, do not quit yet)."""
        if not self.unsaved:
            return False

        def done(yes: bool | None) -> None:
            if yes:
                self.quit_now()

        self.push_screen(QuitScreen(), done)
        return True

    def quit_now(self) -> None:
        """The clean quit: the engine's jobs are told to stop (never waited for), the
        autosave is removed."""
        self.review.cancel()
        self.bridge.shutdown()
        if self.autosave is not None:
            self.autosave.remove()
        self.exit()

    # ------------------------------------------------------------------ a crash
    def record_crash(self, error: BaseException) -> CrashReport:
        """Write the crash report and the session's last state (the first crash only)."""
        if self.crash is not None:
            return self.crash
        context: dict[str, str] = {}
        try:
            context["moves"] = self.position.digits() + f" (line {self.model.line_path})"
            context["file"] = str(self.current_file or "(none)")
        except Exception:  # noqa: BLE001 - the state may be what broke
            pass
        if self.autosave is not None:
            try:
                text: str | None = self.session().to_text()
            except Exception:  # noqa: BLE001 - then the last state written is kept
                text = None
            saved = self.autosave.flush(text)
            context["autosave"] = str(self.autosave.path) if saved else \
                f"not written ({self.autosave.error})"
        self.crash = write_crash_report(error, context)
        return self.crash
