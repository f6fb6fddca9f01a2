"""The session's safety: the autosave, the restore offer at start, the question before
quitting with unsaved changes, and the crash report (see autosave.py and crash.py)."""

from __future__ import annotations

from collections.abc import Callable

from c4tui.bounded import shown

from ..screens import ConfirmScreen
from ..screens.confirm import QuitScreen
from ..session.autosave import Autosave, Orphan
from ..session.crash import CrashReport, write_crash_report
from ..session.model import GameModel
from ..session.session_file import Session
from .files import FileControl
from .host import Host


class SessionControl:
    """``autosave``: where this session is written (None: nowhere, as in most tests);
    ``restore``: a crashed session to offer when the app starts."""

    def __init__(self, model: GameModel, files: FileControl, host: Host,
                 autosave: Autosave | None, restore: Orphan | None) -> None:
        self.model, self.files, self.host = model, files, host
        self.autosave = autosave
        self._restore_offer = restore
        self._autosaved: tuple[object, ...] = ()
        self._autosave_said: str | None = None
        self.crash: CrashReport | None = None  #: set when the app died of an exception

    # ------------------------------------------------------------------ the autosave
    def session(self) -> Session:
        """The session as it is now."""
        m = self.model
        return Session(m.root, dict(m.headers), tuple(m.line_path), m.ply,
                       self.files.current_file, self.files.unsaved)

    def _key(self) -> tuple[object, ...]:
        # the tree is immutable: an edit makes a new root, compared by its id (the root
        # itself is kept in the key so that the id cannot be reused; never compared)
        m = self.model
        return (id(m.root), m.root, m.line_path, m.ply, tuple(m.headers.items()),
                self.files.current_file, self.files.unsaved)

    def tick(self) -> None:
        """Hand the session to the autosave if it changed (after every change)."""
        autosave = self.autosave
        if autosave is None or not autosave.active:
            return
        key = self._key()
        if key[0] != self._autosaved[0] or key[2:] != self._autosaved[2:]:
            self._autosaved = key
            autosave.submit(self.session().to_text())
        if autosave.error != self._autosave_said:  # a failure is said once, not per move
            self._autosave_said = autosave.error
            self.host.warn(autosave.error)

    def start(self) -> None:
        """At mount: start the autosave, then offer a crashed session, if any."""
        # the state as given at start is not written: there is nothing to lose yet
        self._autosaved = self._key()
        if self.autosave is not None:
            self.host.warn(self.autosave.start())
        orphan, self._restore_offer = self._restore_offer, None
        if orphan is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.restore(orphan)
            else:
                kept = orphan.set_aside()
                self.host.say(f"not restored (kept as {kept} until the next one is declined)")

        self.host.ask(ConfirmScreen(
            f"c4tui did not quit cleanly last time. Restore that session?\n"
            f"{shown(orphan.describe())}"), done)  # it names the game's file

    def restore(self, orphan: Orphan) -> None:
        """Load a crashed session: its game (undoable), line, viewed move and file."""
        s = orphan.session
        self.model.load(s.root, s.headers)
        try:
            self.model.goto_path(s.line_path)
        except IndexError:
            pass
        self.model.goto(s.ply)
        self.files.current_file = s.file
        if not s.changed:  # it was the file's game: saved as far as the user knows
            self.files.mark_saved()
        orphan.discard()  # from now on it is this session's autosave that keeps it
        self.host.position_changed()
        self.host.say(f"restored the session: {orphan.describe()}")

    # ------------------------------------------------------------------ quitting
    def quit_asks(self, quit_now: Callable[[], None]) -> bool:
        """``q`` with unsaved changes: ask first (True: asked; ``quit_now`` if yes)."""
        if not self.files.unsaved:
            return False

        def done(yes: bool | None) -> None:
            if yes:
                quit_now()

        self.host.ask(QuitScreen(), done)
        return True

    def close(self, clean: bool) -> None:
        """The app ends: a clean quit removes the autosave, any other end keeps it."""
        if self.autosave is None:
            return
        if clean:
            self.autosave.remove()
        else:
            self.autosave.close()

    # ------------------------------------------------------------------ a crash
    def record_crash(self, error: BaseException) -> CrashReport:
        """Write the crash report and the session's last state (the first crash only)."""
        if self.crash is not None:
            return self.crash
        context: dict[str, str] = {}
        try:
            context["moves"] = self.model.position.digits() + f" (line {self.model.line_path})"
            context["file"] = str(self.files.current_file or "(none)")
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
