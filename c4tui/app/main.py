"""The analysis workstation: the controllers, composed; the path of a change.

A key runs a controller (``controllers/``) from the main screen; a controller that changes
the game calls :meth:`C4App.position_changed` (the engine, the preview, play mode and the
review follow the new position) or :meth:`C4App.state_changed`; both end in ``render``, a
pure function of the state. The engine's threads post :class:`EngineUpdated` (coalesced)
when they have news; nothing here waits for the engine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from c4tui.bounded import shown
from c4tui.engine.board.position import Position
from c4tui.gamefile.tree import Node
from c4tui.review.game import INACCURACY_MOVES

from .bridge.engine_bridge import BridgeFactory, BridgeLike, EngineBridge
from .bridge.eval_history import EvalHistory
from .bridge.player import PlaySettings, Reply
from .bridge.settings import SearchSettings
from .controllers import (
    EngineTicker,
    FileControl,
    PlayControl,
    Preview,
    PreviewControl,
    ReviewControl,
    SearchControl,
    SessionControl,
    TreeControl,
)
from .controllers.ticker import TICK_EVERY
from .controllers.why import WhyControl
from .messages import EngineMoved, EngineUpdated
from .render import draw_preview, engine_view, frame, render
from .screens.main import Controls, MainScreen
from .screens.modal import stale_key
from .screens.palette import Palette
from .session.autosave import Autosave, Orphan
from .session.hangup import TerminalWatch
from .session.model import GameModel
from .textual_leaks import FORGET_EVERY, forget_removed_widgets
from .widgets.threat_panel import draw_why

#: The command palette's screen id (Textual's: one palette at a time).
PALETTE_ID = "--command-palette"
#: The most characters of one toast: a message that quotes a long file name or header
#: is cut, never a screenful.
MESSAGE_CHARS = 400


class C4App(App[None]):
    """Connect Four analysis workstation."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: works for subclasses too
    TITLE = "c4tui"
    BINDINGS = [
        Binding("question_mark", "toggle_keys", "keys", key_display="?"),
        Binding("q", "quit", "quit"),
        # Textual's own, whose description and tooltip the key panel showed as one
        Binding("ctrl+q", "quit", "quit", show=False, priority=True),
        # the why view's (controllers/why.py): on the app, so they work on any panel
        Binding("w", "why", "why: Allis's rules in the threat panel", show=False),
        Binding("W", "why_next", "why: the next rule's refuted groups", show=False),
    ]

    def __init__(self, position: Position | None = None, *,
                 settings: SearchSettings | None = None, engine: bool = True,
                 headers: dict[str, str] | None = None, tree: Node | None = None,
                 play: PlaySettings | None = None, hints: bool = True,
                 autosave: Autosave | None = None, restore: Orphan | None = None,
                 inaccuracy: int = INACCURACY_MOVES,
                 bridge: BridgeFactory | None = None) -> None:
        """``tree``: the game's moves with variations (default: ``position``'s); ``play``:
        start in play mode; ``hints`` False hides the engine's opinion; ``autosave``: write
        the session there; ``restore``: a crashed session to offer at start;
        ``inaccuracy``: the review's N of the ``?!`` marks; ``bridge``: builds the engine's
        bridge from the settings, ``on_update`` and ``on_reply`` (default: the real
        :class:`EngineBridge`, off if not ``engine``; tests pass a scripted fake)."""
        super().__init__()
        self.last_message = self.last_error = self.last_warning = ""
        self.model = GameModel(position, headers, tree)
        self.settings = settings or SearchSettings()
        updated = self._post_update  # (from the workers' threads: post_message is safe)
        make = bridge or (lambda s, u, r: EngineBridge(s, enable=engine, on_update=u,
                                                       on_reply=r))
        self.bridge: BridgeLike = make(self.settings, updated, self._post_reply)
        self.evals = EvalHistory()
        self.play = PlayControl(self.model, self.bridge, self, play, hints)
        shown = lambda: self.play.hints  # noqa: E731
        self.game_tree = TreeControl(self.model, self, self.play)
        self.search = SearchControl(self.model, self.bridge, self.settings, self, shown)
        self.files = FileControl(self.model, self, self.copy_to_clipboard)
        self.preview = PreviewControl(self.model, self.bridge, self, shown, self._draw_preview)
        self.review = ReviewControl(self.model, self.bridge, self, shown, updated, inaccuracy)
        self.session = SessionControl(self.model, self.files, self, autosave, restore)
        self.ticker = EngineTicker(self._engine_busy, updated)
        self.why = WhyControl(self, updated)
        self._watch = TerminalWatch(self._terminal_gone)

    @property
    def position(self) -> Position:
        """The viewed position (live: copy it to keep it)."""
        return self.model.position

    @property
    def main(self) -> MainScreen:
        """The main screen (also while a dialog is on top)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    def get_default_screen(self) -> Screen[Any]:
        return MainScreen(Controls(self, self.game_tree, self.play, self.search, self.files,
                                   self.preview, self.review))

    def on_mount(self) -> None:
        """The engine is told of the position; the main screen draws once its panels are
        there (it mounts after the app)."""
        self.position_changed()
        self.call_after_refresh(self.bridge.start)  # after the first frame: the GIL
        self.ticker.start(self.set_interval(TICK_EVERY, self.ticker.tick))
        self.set_interval(FORGET_EVERY, forget_removed_widgets)
        if not self.is_headless:
            self._watch.start()
        self.session.start()

    # ------------------------------------------------------------------ the path of a change
    def position_changed(self) -> None:
        """The viewed position (or the game) changed: the engine is told (not in play mode
        while it finds its own move), a preview ends, a review of a line gone is cancelled."""
        self.preview.forget()
        self.bridge.set_position(self.position, analyse=not self.play.position_changed())
        self.review.game_changed()
        self.why.position_changed(self.position)
        self.state_changed()

    def state_changed(self) -> None:
        """Something shown changed: the autosave gets the session, the ticker wakes (a
        search may run now), the panels are drawn."""
        self.session.tick()
        self.ticker.wake()
        self.engine_updated()

    @on(EngineUpdated)
    def engine_updated(self) -> None:
        """The engine's news (and the review's) into the graph's history, then drawn."""
        if not self.is_running or not self.screen_stack or not self.main.ready:
            return
        self.review.take_results(self.evals)
        view = engine_view(self.bridge.view(self.position), self.review, self.position)
        self.evals.record(self.position, view)
        self.warn(self.bridge.take_note())  # e.g. a cache directory it cannot write
        draw_why(self.main, self.why.shown(self.position, view.proven, self.play.hints))
        render(self.main, frame(self.model, view, self.play, self.review, self.evals,
                                self.preview.current))

    @on(EngineMoved)
    def _engine_moved(self, event: EngineMoved) -> None:
        col = self.play.accept(event.reply)
        if col is not None:
            self.main.board.cursor = col
            self.position_changed()

    def _draw_preview(self, preview: Preview | None) -> None:
        if self.main.ready:
            draw_preview(self.main, preview)

    def _post_update(self) -> None:
        self.post_message(EngineUpdated())

    def _post_reply(self, reply: Reply) -> None:
        self.post_message(EngineMoved(reply))

    def _engine_busy(self) -> bool:
        job = self.review.job
        return self.bridge.tick() or (job is not None and job.running)

    # ------------------------------------------------------------------ the Host
    # A message quotes file names, headers and engine text: every toast goes through the
    # one rule for untrusted text (bounded.shown) and is not read as Rich markup, so a
    # file named "[@click=app.quit]x" or holding an escape sequence shows as written.
    def say(self, text: str) -> None:
        """Show a one-line message (replacing the one before: toasts never pile up)."""
        self.last_message = text
        self.clear_notifications()
        self.notify(shown(text, MESSAGE_CHARS), timeout=3, markup=False)

    def error(self, text: str) -> None:
        """Show a one-line error (replacing an older one: they never stack)."""
        self.last_error = text
        self.bell()
        self.clear_notifications()
        self.notify(shown(text, MESSAGE_CHARS), severity="error", timeout=6, markup=False)

    def warn(self, text: str | None) -> None:
        if text:
            self.last_warning = text
            self.notify(shown(text, MESSAGE_CHARS), severity="warning", timeout=6,
                        markup=False)

    def ask(self, screen: Screen[Any], done: Callable[[Any], None]) -> None:
        self.push_screen(screen, done)

    # ------------------------------------------------------------------ app-wide keys
    async def _on_key(self, event: events.Key) -> None:
        """A key of a burst meant for a dialog that has closed meanwhile is dropped: Textual
        would check it against the bindings of the screen below (see screens/modal.py)."""
        if stale_key(event):  # (Textual runs App._on_key after this unless prevented)
            event.stop()
            event.prevent_default()

    def action_why(self) -> None:
        """``w``: the why view on or off (on the main screen: not under a dialog)."""
        if self.screen is self.main:
            self.why.toggle(self.position, self.play.hints)

    def action_why_next(self) -> None:
        """``W``: the next rule's refuted groups in the why view."""
        if self.screen is self.main:
            self.why.next_rule()

    def action_toggle_keys(self) -> None:
        """Every key of the screen in a side panel (the footer has room for a few)."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_command_palette(self) -> None:
        """``ctrl+p``: the command palette (the app's subclass: see screens/palette.py)."""
        if self.use_command_palette and self.screen.id != PALETTE_ID:
            self.push_screen(Palette(id=PALETTE_ID))

    def search_themes(self) -> None:
        """The palette's "Theme" command: its list of themes in the app's palette too
        (Textual pushes its own, with the faults screens/palette.py works around)."""
        from textual.theme import ThemeProvider

        self.push_screen(Palette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from self.main.commands()

    async def action_quit(self) -> None:
        """Quit at once (the engine's jobs are told to stop, never waited for); with
        unsaved changes, after asking."""
        if not self.session.quit_asks(self.quit_now):
            self.quit_now()

    def quit_now(self) -> None:
        """The clean quit: the engine's jobs are told to stop, the autosave is removed."""
        self.review.cancel()
        self.bridge.shutdown()
        self.session.close(clean=True)
        self.exit()

    # ------------------------------------------------------------------ the end
    def on_unmount(self) -> None:
        self.session.close(clean=False)  # kept unless the quit was clean (removed then)
        self._watch.stop()
        self.why.close()
        self.review.cancel()
        self.bridge.shutdown()

    def _terminal_gone(self) -> None:
        """From the SIGHUP handler (main thread) or the watch thread: quit."""
        self.bridge.shutdown()
        if threading.current_thread() is threading.main_thread():
            self.exit(return_code=129)
        else:
            self.call_from_thread(self.exit, return_code=129)

    def _handle_exception(self, error: Exception) -> None:
        """An uncaught exception ends the app (Textual's way) after the crash report and the
        session's last state are written; ``c4tui open`` then prints one line naming the
        report instead of Textual's traceback, and exits 1."""
        try:
            report = self.session.record_crash(error)
        except Exception:  # noqa: BLE001 - never hide the crash behind another
            report = None
        super()._handle_exception(error)
        if report is not None and report.path is not None:
            self._exit_renderables.clear()  # the traceback is in the file instead
