"""The analysis workstation: composition, key bindings, and the path of a key press.

A key press runs an action here, which changes the :class:`GameModel` (or asks the
:class:`EngineBridge`), then :meth:`C4App.show` sets the panels' reactive attributes from
the model and the bridge's :class:`EngineView`; each panel draws itself. A 4 Hz timer polls
the bridge so the search's progress shows, and rests once nothing has changed for a second
(nothing runs: an idle app wakes no one); nothing here waits for the engine.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TypeVar

from textual import events, on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from c4tui.engine.geometry import IS_DEFAULT, NAME, WIDTH
from c4tui.engine.position import PLAYER_NAMES, IllegalMoveError, Position
from c4tui.gamefile.tree import Node
from c4tui.review import BLUNDER, MISTAKE, GameReview, result_words

from .autosave import Autosave, Orphan
from .engine_bridge import EngineBridge, EngineMissing
from .engine_view import ExactEntry, ExactStatus
from .eval_history import EvalHistory
from .file_actions import FileActions
from .hangup import TerminalWatch
from .messages import ColumnClicked, EngineMoved, EngineUpdated, PlyClicked
from .model import GameModel
from .play import PlaySettings
from .play_actions import PlayActions
from .preview_actions import PreviewActions
from .review_worker import ReviewWorker
from .screens.modal import stale_key
from .screens.palette import Palette
from .search_actions import EXTERNAL_BINDINGS, SearchActions
from .session_actions import SessionActions
from .settings import SearchSettings
from .text import plural
from .textual_leaks import FORGET_EVERY, forget_removed_widgets
from .tree_actions import TREE_BINDINGS, TreeActions
from .widgets import (
    AnalysisPanel,
    BoardView,
    EvalGraph,
    KeyBar,
    MoveList,
    SearchLog,
    SearchPath,
    StatusLine,
    ThreatPanel,
)
from .widgets.board import KEY_COLUMNS, board_box, terminal_needed

W = TypeVar("W", bound=Widget)

#: Seconds between two polls of the engine while it works.
POLL_EVERY = 0.25
#: The height of the board's row in app.tcss (``#top``), small and big.
TOP, BIG_TOP = 14, 20
#: Polls in a row with nothing running, after which the poll rests until :meth:`C4App.show`.
IDLE_POLLS = 4


class C4App(SessionActions, SearchActions, FileActions, PlayActions, PreviewActions,
            TreeActions, App[None]):
    """Connect Four analysis workstation."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: works for subclasses too
    TITLE = "c4tui"

    BINDINGS = [
        *[Binding(str(c + 1), f"play({c})", f"play {c + 1}", show=False)
          for c in range(KEY_COLUMNS)],
        Binding("left", "cursor(-1)", "cursor left", show=False),
        Binding("right", "cursor(1)", "cursor right", show=False),
        Binding("enter", "play_cursor", "play cursor column", show=False),
        Binding("up", "goto_ply(-1, True)", "previous ply", show=False),
        Binding("down", "goto_ply(1, True)", "next ply", show=False),
        Binding("home", "goto_ply(0)", "first ply", show=False),
        Binding("end", "goto_ply(99)", "last ply", show=False),
        Binding("u", "undo", "undo"),
        Binding("ctrl+r", "redo", "redo", show=False),
        Binding("t", "toggle_threats", "threats"),
        Binding("R", "review", "review game", show=False),
        Binding("space", "toggle_pause", "pause"),
        Binding("n", "step_iteration", "step"),
        *EXTERNAL_BINDINGS,  # space stops, n N greyed out: with an external engine only
        Binding("N", "step_nodes", "step N nodes", show=False),
        Binding("x", "stop", "stop", show=False),
        Binding("g", "analyse", "analyse now", show=False),
        Binding("a", "toggle_auto", "auto", show=False),
        Binding("l", "node_limit", "node limit", show=False),
        Binding("H", "hash_size", "hash size", show=False),
        Binding("B", "toggle_book", "books for the search on/off", show=False),
        Binding("o", "load", "open"),
        Binding("s", "save", "save"),
        Binding("O", "recent", "recent files", show=False),
        Binding("G", "games", "games list", show=False),
        Binding("e", "enter_moves", "enter moves", show=False),
        Binding("c", "copy", "copy", show=False),
        Binding("C", "copy_game", "copy game file", show=False),
        Binding("backspace", "take_back", "take back last move", show=False),
        Binding("p", "play_mode", "play mode", show=False),
        Binding("h", "toggle_hints", "hints", show=False),
        Binding("v", "preview_line", "preview line", show=False),
        Binding("z", "preview_path", "preview search path", show=False),
        Binding("comma", "preview_step(-1)", "preview back", show=False),
        Binding("full_stop", "preview_step(1)", "preview forward", show=False),
        Binding("escape", "preview_end", "end preview", show=False),
        *TREE_BINDINGS,  # [ ] P D ;
        Binding("question_mark", "toggle_keys", "keys", key_display="?"),
        Binding("q", "quit", "quit"),
        # Textual's own, whose description and tooltip the key panel showed as one
        # ("Quit Quit the app and return to the command prompt.")
        Binding("ctrl+q", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, position: Position | None = None, *,
                 settings: SearchSettings | None = None, engine: bool = True,
                 headers: dict[str, str] | None = None, tree: Node | None = None,
                 play: PlaySettings | None = None, hints: bool = True,
                 autosave: Autosave | None = None, restore: Orphan | None = None) -> None:
        """``tree``: the game's moves with variations (default: ``position``'s moves);
        ``play``: start in play mode against the engine; ``hints`` False hides the
        engine's opinion of the position (see :class:`PlayActions`); ``autosave``: write
        the session there as it changes; ``restore``: a crashed session to offer at start
        (see :class:`SessionActions`)."""
        super().__init__()
        self.model = GameModel(position, headers, tree)
        self.init_session(autosave, restore)
        self.settings = settings or SearchSettings()
        # exact values are drawn when they arrive, not at the next 4 Hz poll
        self.bridge = EngineBridge(self.settings, enable=engine,
                                   on_update=lambda: self.post_message(EngineUpdated()),
                                   on_reply=lambda reply: self.post_message(EngineMoved(reply)))
        self.init_play(play, hints)
        self.evals = EvalHistory()
        self.review = ReviewWorker(on_update=lambda: self.post_message(EngineUpdated()))
        self._review_told = 0  # the serial of the last review whose end was said
        self.last_message = ""
        self.last_error = ""
        self._said_small = False  #: the board-too-large warning is showing
        self._watch = TerminalWatch(self._terminal_gone)
        self._poller: Timer | None = None
        self._idle_polls = 0  #: polls in a row that found nothing running

    @property
    def position(self) -> Position:
        """The viewed position (live: copy it to keep it)."""
        return self.model.position

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield BoardView(id="board")
            with Vertical(id="side"):
                with Vertical(id="analysis-box"):
                    yield AnalysisPanel(id="analysis")
                    yield EvalGraph(id="graph")
                with Vertical(id="moves-box"):
                    yield MoveList(id="moves")
        with Horizontal(id="bottom"):
            yield SearchLog(id="log")
            yield ThreatPanel(id="threat-info")
            yield SearchPath(id="path")
        yield StatusLine(id="status")
        yield KeyBar(compact=True)

    def on_mount(self) -> None:
        titles = {"#board": "board", "#analysis-box": "analysis", "#moves-box": "moves",
                  "#log": "search log", "#threat-info": "threats",
                  "#path": "search path (paused)"}
        for selector, title in titles.items():
            self.query_one(selector).border_title = title
        self.query_one("#threat-info").display = False
        self.query_one("#path").display = False
        self.query_one("#board").focus()
        self._fit_board(False)
        self.show(moved=True)
        # load the engine after the first frame: its imports compete for the GIL
        self.call_after_refresh(self.bridge.start)
        self._poller = self.set_interval(POLL_EVERY, self._poll)
        self.set_interval(FORGET_EVERY, forget_removed_widgets)
        if not self.is_headless:
            self._watch.start()
        self.start_session()

    def action_command_palette(self) -> None:
        """``ctrl+p``: the command palette (the app's subclass: see screens/palette.py)."""
        if self.use_command_palette and not Palette.is_open(self):
            self.push_screen(Palette(id="--command-palette"))

    async def _on_key(self, event: events.Key) -> None:
        """A key of a burst meant for a dialog that has closed meanwhile is dropped: Textual
        would check it against the bindings of the screen below (see screens/modal.py)."""
        if stale_key(event):  # (Textual runs App._on_key after this unless prevented)
            event.stop()
            event.prevent_default()

    def on_resize(self, event: events.Resize) -> None:
        """Large terminals get a large board."""
        big = event.size.width >= 110 and event.size.height >= 36
        board = self._main(BoardView)
        if board.big != big:
            board.big = big
            self.screen_stack[0].set_class(big, "-big")
            self._fit_board(big)
        self._say_if_too_small(event.size.width, event.size.height)

    def _fit_board(self, big: bool) -> None:
        """Boards of other sizes than 7x6 (app.tcss's) get a box that fits them."""
        if IS_DEFAULT:
            return
        width, height = board_box(big)
        self._main(BoardView).styles.width = width
        # never lower than app.tcss's: the side column's moves box needs its rows (8x7's
        # 12-line box left it one line without its border)
        self.query_one("#top").styles.height = max(height, BIG_TOP if big else TOP)

    def _say_if_too_small(self, width: int, height: int) -> None:
        """A board of another size than 7x6 too large for the terminal says so (once per
        change; the 7x6 layout is made for 80x24)."""
        need_w, need_h = terminal_needed()
        small = not IS_DEFAULT and (width < need_w or height < need_h)
        if small and not self._said_small:
            self.notify(f"the {NAME} board needs a terminal of at least {need_w}x{need_h} "
                        f"(this one is {width}x{height})", severity="warning", timeout=8)
        self._said_small = small

    def on_unmount(self) -> None:
        if self.autosave is not None:  # kept unless the quit was clean (removed then)
            self.autosave.close()
        self._watch.stop()
        self.review.cancel()
        self.bridge.shutdown()

    def _terminal_gone(self) -> None:
        """From the SIGHUP handler (main thread) or the watch thread: quit."""
        self.bridge.shutdown()
        if threading.current_thread() is threading.main_thread():
            self.exit(return_code=129)
        else:
            self.call_from_thread(self.exit, return_code=129)

    async def action_quit(self) -> None:
        """Quit at once (the engine's jobs are told to stop, never waited for); with
        unsaved changes, after asking."""
        if not self.quit_asks():
            self.quit_now()

    def _handle_exception(self, error: Exception) -> None:
        """An exception no handler caught: the app ends (Textual's way), after the crash
        report and the session's last state are written. ``c4tui open`` then prints one
        line naming the report instead of Textual's traceback, and exits 1."""
        try:
            report = self.record_crash(error)
        except Exception:  # noqa: BLE001 - never hide the crash behind another
            report = None
        super()._handle_exception(error)
        if report is not None and report.path is not None:
            self._exit_renderables.clear()  # the traceback is in the file instead

    def _main(self, kind: type[W]) -> W:
        """The panel of this type on the main screen (even while a prompt is on top)."""
        screen = self.screen_stack[0] if self.screen_stack else self.screen
        return screen.query_one(kind)

    # ------------------------------------------------------------------ drawing
    def show(self, moved: bool = False) -> None:
        """Set every panel from the model and the engine; ``moved``: the viewed position
        changed, so tell the engine first."""
        pos = self.position
        self._wake_poll()  # a request or an update: something may run now
        if moved:  # the engine's turn in play mode: no analysis of a passing position
            self.bridge.set_position(pos, analyse=not self.play_position_changed())
            self.preview = None  # a preview is of the position it started from
        view = self.bridge.view(pos)
        reviewed = self.review.values(pos)
        if reviewed is not None and (view.exact is None
                                     or view.exact.status is not ExactStatus.DONE):
            # the review solved it (the exact worker may have given up on it): use that
            view = dataclasses.replace(view, exact=ExactEntry(ExactStatus.DONE, reviewed))
        for solved, values in self.review.take_fresh():
            self.evals.record_exact(solved, max(v for v in values if v is not None))
        self.evals.record(pos, view)
        line = tuple(self.model.line)
        review_text = self._review_progress(line)
        shown = pos.copy()
        board = self._main(BoardView)
        board.position = shown
        exact = view.exact
        if not self.hints:
            board.values = ()
        else:  # exact where solved, else approximate values agreeing with what is known
            board.values = view.values()
        board.solving = self.hints and exact is not None and exact.status is ExactStatus.SOLVING
        moves = self._main(MoveList)
        moves.root, moves.line_path, moves.ply = self.model.root, self.model.line_path, pos.ply
        moves.marks = self.review.marks(line) if self.hints else {}
        graph = self._main(EvalGraph)
        graph.values, graph.ply = self.evals.line(self.model.line), pos.ply
        graph.exact = self.evals.exact_line(self.model.line)
        analysis = self._main(AnalysisPanel)
        analysis.position, analysis.view, analysis.cursor = shown, view, board.cursor
        self.show_preview()
        analysis.review = self.review.moves(line)[pos.ply - 1] if pos.ply else None
        log = self._main(SearchLog)
        log.position, log.snapshot = shown, view.snapshot
        path = self._main(SearchPath)
        path.position, path.path = shown, view.path if self.hints else ()
        graph.hidden = log.hidden = not self.hints
        analysis.hints = self.hints
        threats = self._main(ThreatPanel)
        threats.position, threats.verdict, threats.engine = shown, view.verdict, view.state
        # below 110 columns the log, the threats and the path do not fit side by side:
        # the path of a paused search then takes the threats' place
        threats.display = self.hints and board.show_threats and (board.big or not view.path)
        status = self._main(StatusLine)
        status.view, status.play, status.review = view, self.play_status(), review_text
        self._warn(self.bridge.take_note())  # e.g. a cache directory it cannot write
        self.autosave_tick()

    def _review_progress(self, line: tuple[int, ...]) -> str:
        """The review's progress for the status line ("" when none runs). A review of a
        line no longer in the game (a new game, a move taken back or deleted) is cancelled
        (viewing another variation is not a change); a finished one's summary is said once."""
        job = self.review.job
        if job is None:
            return ""
        if job.running and job.line != line and not job.cancelled \
                and not self.model.root.has_line(job.line):
            self.review.cancel()
            self.say("review cancelled: the game changed (R reviews it again)")
            return ""
        if job.running:
            return "" if job.cancelled else f"review {job.done}/{job.total}"
        if self._review_told != job.serial and (job.result or job.error):
            self._review_told = job.serial
            if job.error:
                self.error(f"review: {job.error}")
            else:
                self.say(review_summary(job.result))
        return ""

    def _poll(self) -> None:
        job = self.review.job
        busy = self.bridge.tick() or (job is not None and job.running)
        idle = 0 if busy else self._idle_polls + 1
        if self.is_running:
            self.show()
        self._idle_polls = idle
        if idle >= IDLE_POLLS and self._poller is not None:
            self._poller.pause()  # until the next show(): a key, a message, an update

    def _wake_poll(self) -> None:
        """Poll again (a no-op while polling): whatever :meth:`show` follows may have
        started a search or a solve."""
        self._idle_polls = 0
        if self._poller is not None:
            self._poller.resume()

    # ------------------------------------------------------------------ messages
    def say(self, text: str) -> None:
        """Show a one-line message (replacing the one before: toasts never pile up)."""
        self.last_message = text
        self.clear_notifications()
        self.notify(text, timeout=3)

    def error(self, text: str) -> None:
        """Show a one-line error (replacing an older one: they never stack)."""
        self.last_error = text
        self.bell()
        self.clear_notifications()
        self.notify(text, severity="error", timeout=6)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        seen = set()
        for b in self.BINDINGS:
            assert isinstance(b, Binding)
            if b.action in ("command_palette", "quit") or b.action.startswith("play("):
                continue
            title = self.key_help(b)  # None: not with this engine
            if b.action in seen or title is None:
                continue
            seen.add(b.action)
            yield SystemCommand(title, f"key: {b.key_display or b.key}",
                                partial(self.run_action, b.action))
        for c in range(WIDTH):
            yield SystemCommand(f"Play column {c + 1}", f"key: {c + 1}",
                                partial(self.run_action, f"play({c})"), discover=False)

    # ------------------------------------------------------------------ the game
    def action_play(self, col: int) -> None:
        if self.play_refuses():
            return
        try:
            self.model.play(col)
        except IllegalMoveError as exc:
            self.error(str(exc))
            return
        self._main(BoardView).cursor = col
        self.show(moved=True)

    def action_cursor(self, delta: int) -> None:
        board = self._main(BoardView)
        board.cursor = (board.cursor + delta) % WIDTH

    def action_play_cursor(self) -> None:
        self.action_play(self._main(BoardView).cursor)

    @on(ColumnClicked)
    def _column_clicked(self, event: ColumnClicked) -> None:
        self.action_play(event.col)

    @on(EngineUpdated)
    def _engine_updated(self) -> None:
        if self.is_running:
            self.show()

    @on(PlyClicked)
    def _ply_clicked(self, event: PlyClicked) -> None:
        self.action_goto_ply(event.ply)

    def action_undo(self) -> None:
        if self.play is not None:  # the engine's reply and the user's move together
            self.play_take_back()
            return
        if self.model.undo():
            self.show(moved=True)
        else:
            self.error("undo: nothing to undo")

    def action_redo(self) -> None:
        if self.model.redo():
            self.show(moved=True)
        else:
            self.error("redo: nothing to redo")

    def action_take_back(self) -> None:
        if self.play is not None:
            self.play_take_back()
            return
        try:
            self.model.take_back()
        except IllegalMoveError as exc:
            self.error(str(exc))
            return
        self.show(moved=True)

    def action_goto_ply(self, ply: int, relative: bool = False) -> None:
        before = self.model.ply
        self.model.goto(before + ply if relative else ply)
        if self.model.ply != before:
            self.show(moved=True)

    def action_review(self) -> None:
        """Review the whole game with the exact solver, in the background (R again:
        again)."""
        line = tuple(self.model.line)
        if not line:
            self.error("review: no moves to review")
            return
        if not self.hints:
            self.error("review: the hints are hidden (h shows them)")
            return
        try:
            engine = self.bridge.require_engine()
        except EngineMissing:
            self.error(f"review: {self.bridge.why_no_engine()}")
            return
        self.review.start(line, engine.solver.book)
        self.say(f"reviewing the game's {plural(len(line), 'move')} with the exact solver")
        self.show()

    def action_toggle_keys(self) -> None:
        """Every key of the screen in a side panel (the footer has room for a few)."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_toggle_threats(self) -> None:
        board = self._main(BoardView)
        board.show_threats = not board.show_threats
        self.show()


def review_summary(result: GameReview) -> str:
    """``review done: White 1??, 0? · Black 0??, 2? · perfect play: White wins``."""
    sides = " · ".join(
        f"{PLAYER_NAMES[p]} {result.count(p, BLUNDER)}{BLUNDER} {result.count(p, MISTAKE)}"
        f"{MISTAKE}" for p in (0, 1))
    return f"review done: {sides} · from the start: {result_words(result.start, 0)}"
