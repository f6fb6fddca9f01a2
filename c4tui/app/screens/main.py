"""The main screen: the panels' layout, and where the workstation's keys land.

Each key names the controller method it runs (``search('stop')``: the bindings and their
allow-list are in main_keys.py), and the screen has one action per controller that runs
it; the board owns the cursor keys (← → enter, see widgets/board.py), the app only quit,
``?`` and the why keys. The keys here work whichever panel has focus (a click on the
graph or the log focuses it), so they stay on the screen rather than on the board.
Messages from the panels (a click on a column, a move, a ply; a preview) arrive here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from c4tui.engine.board.geometry import COLUMN_NAMES, IS_DEFAULT
from c4tui.engine.board.position import Position

from ..controllers import (
    FileControl,
    Host,
    PlayControl,
    Preview,
    PreviewControl,
    ReviewControl,
    SearchControl,
    TreeControl,
)
from ..controllers.trainer import TrainerControl
from ..messages import (
    ColumnChosen,
    CursorMoved,
    NodeClicked,
    PlyClicked,
    PreviewEnded,
    PreviewRequested,
)
from ..widgets import (
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
from ..widgets.board_size import (
    BIG_TOP,
    TOP,
    WIDE_TOP,
    board_box,
    terminal_needed,
    too_small_text,
)
from . import main_keys
from .main_keys import keyed, search_method


@dataclass(frozen=True)
class Controls:
    """The controllers the main screen's keys and messages go to, and the app."""

    host: Host
    tree: TreeControl
    play: PlayControl
    search: SearchControl
    files: FileControl
    preview: PreviewControl
    review: ReviewControl


class MainScreen(Screen[None]):
    """The workstation's one screen under its dialogs."""

    BINDINGS = main_keys.BINDINGS  #: each names the controller it drives

    def __init__(self, controls: Controls) -> None:
        super().__init__()
        self.c = controls
        self._said_small = False  #: the board-too-large line stands for the panels
        self.ready = False  #: the panels are there (set at mount): they can be drawn

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
        yield Static(id="too-small")  # the one line of a board too large (shown then)
        yield StatusLine(id="status")
        yield KeyBar(compact=True)

    def on_mount(self) -> None:
        titles = {"#board": "board", "#analysis-box": "analysis", "#moves-box": "moves",
                  "#log": "search log", "#threat-info": "threats",
                  "#path": "search path (paused)"}
        if self._closing_before_first_frame(titles):
            return  # nothing to set up or draw: the app is ending (ready stays False)
        for selector, title in titles.items():
            self.query_one(selector).border_title = title
        self.query_one("#threat-info").display = False
        self.query_one("#path").display = False
        self.query_one("#too-small").display = False
        self.board.focus()
        self._fit_board(False)
        self._fit_terminal(self.app.size.width, self.app.size.height)  # before any Resize
        self.ready = True
        self.c.host.state_changed()  # the first drawing (of what was set before it, too)

    def _closing_before_first_frame(self, panels: Iterable[str]) -> bool:
        """Whether the app ends before this screen's first frame, its panels not (all)
        mounted: a served session closed at once, or reloaded. Textual mounts nothing once
        ``exit()`` was called (an empty ``mount_all``), and the web driver's "quit" prunes
        the screen while it mounts; either way a panel is missing here, which is no bug
        then. A panel missing while the app goes on is one: that still raises."""
        app = self.app
        ending = not app.is_running or app.return_code is not None  # exit() sets the code
        return ending and not all(self.query(selector) for selector in panels)

    @property
    def board(self) -> BoardView:
        return self.query_one(BoardView)

    def on_resize(self, event: events.Resize) -> None:
        if self.ready:  # (not after a mount cut short by the app's end: no panels)
            self._fit_terminal(event.size.width, event.size.height)

    def _fit_terminal(self, width: int, height: int) -> None:
        """Large terminals get a large board (one that fits it: 16x7's big board needs
        140 columns)."""
        need_w, need_h = terminal_needed(big=True)
        big = width >= max(110, need_w) and height >= max(36, need_h)
        wide = big and width >= 140 and height >= 46  # room for the graph's scale
        board = self.board
        if board.big != big or self.has_class("-wide") != wide:
            board.big = big
            self.set_class(big, "-big")
            self.set_class(wide, "-wide")
            self._fit_board(big)
        self._say_if_too_small(width, height)

    def _fit_board(self, big: bool) -> None:
        """Boards of other sizes than 7x6 (app.tcss's) get a box that fits them."""
        if IS_DEFAULT:
            return
        width, height = board_box(big)
        self.board.styles.width = width
        # never lower than app.tcss's: the side column's moves box needs its rows (8x7's
        # 12-line box left it one line without its border)
        top = WIDE_TOP if self.has_class("-wide") else BIG_TOP if big else TOP
        self.query_one("#top").styles.height = max(height, top)

    def _say_if_too_small(self, width: int, height: int) -> None:
        """A board of another size than 7x6 too large for the terminal: one line says so
        in place of the panels (rather than a board cut off or panels squeezed), the
        status line and the keys stay; they come back when the terminal grows. (The 7x6
        layout is made for 80x24 and draws what fits below it.)"""
        text = None if IS_DEFAULT else too_small_text(width, height)
        small = text is not None
        if text is not None:
            self.query_one("#too-small", Static).update(text)
        if small != self._said_small:
            self.query_one("#top").display = not small
            self.query_one("#bottom").display = not small
            self.query_one("#too-small").display = small
            if not small:
                self.board.focus()
        self._said_small = small

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """With an external engine space stops rather than pauses, and the step keys are
        greyed out (None) so that their ``EXTERNAL_BINDINGS`` twins say why."""
        method = search_method(action, parameters)
        return True if method is None else self.c.search.key_state(method)

    def commands(self) -> Iterator[SystemCommand]:
        """The command palette's entries (see :func:`main_keys.commands`)."""
        return main_keys.commands(self, self.board)

    # one action per controller: the key names the method (main_keys.KEYED allows it)
    def action_tree(self, name: str, args: tuple[object, ...] = ()) -> None:
        getattr(self.c.tree, keyed("tree", name))(*args)

    def action_search(self, name: str) -> None:
        getattr(self.c.search, keyed("search", name))()

    def action_files(self, name: str) -> None:
        getattr(self.c.files, keyed("files", name))()

    def action_playing(self, name: str) -> None:
        getattr(self.c.play, keyed("playing", name))()

    def action_review(self, name: str) -> None:
        getattr(self.c.review, keyed("review", name))()

    def action_preview(self, name: str, delta: int | None = None) -> None:
        """The line and its steps (by ``delta``) are those of the board's cursor column."""
        at_cursor = (self.board.cursor,) if name in ("line", "step") else ()
        steps = () if delta is None else (delta,)
        getattr(self.c.preview, keyed("preview", name))(*steps, *at_cursor)

    # the screen's own keys: a column played (the cursor follows), the board's view, and
    # the dialogs this screen opens
    def action_play(self, col: int) -> None:
        if self.c.tree.play_column(col):
            self.board.cursor = col

    def action_toggle_threats(self) -> None:
        self.board.show_threats = not self.board.show_threats
        self.c.host.state_changed()

    def action_flip(self) -> None:
        board = self.board
        board.flipped = not board.flipped
        self.c.host.say(f"board mirrored: column {COLUMN_NAMES[-1]} on the left"
                        if board.flipped else "board as usual: column a on the left")

    def action_toggle_best(self) -> None:
        board = self.board
        board.show_best = not board.show_best
        if board.show_best and not self.c.play.hints:
            self.c.host.say("best move: shown once hints are on (h)")

    def action_trainer(self) -> None:
        from .trainer import TrainerScreen  # (its controller reads the puzzles: on use)

        self.c.host.ask(TrainerScreen(TrainerControl()), lambda _: None)

    def action_explorer(self) -> None:
        from .explorer import ExplorerLinks, ExplorerScreen  # (it reads the games database)

        self.c.host.ask(ExplorerScreen(ExplorerLinks(
            position=lambda: self.c.tree.model.position, exact=self._exact_values,
            play=self.action_play, back=lambda: self.c.tree.goto(-1, True),
            open_game=self.c.files.load_game)), lambda _: None)

    def _exact_values(self, pos: Position) -> tuple[int | None, ...] | None:
        """The exact column values the analysis panel shows for ``pos`` (the solved
        columns while it solves; None: none yet, or the hints are hidden)."""
        exact = self.c.search.bridge.view(pos).exact
        if exact is None or not self.c.play.hints:
            return None
        return exact.scores or exact.partial or None

    # ------------------------------------------------------------------ the panels' clicks
    @on(ColumnChosen)
    def _column_chosen(self, event: ColumnChosen) -> None:
        self.action_play(event.col)

    @on(PlyClicked)
    def _ply_clicked(self, event: PlyClicked) -> None:
        self.c.tree.goto(event.ply)

    @on(NodeClicked)
    def _node_clicked(self, event: NodeClicked) -> None:
        self.c.tree.goto_path(event.path)

    @on(CursorMoved)
    def _cursor_moved(self, event: CursorMoved) -> None:
        # (the board's first cursor, posted as it mounts, can arrive as a session closed
        # at once prunes the screen: no panel then, and no bug)
        if not self._closing_before_first_frame(["AnalysisPanel"]):
            self.query_one(AnalysisPanel).cursor = event.col  # its line, at once

    @on(PreviewRequested)
    def _preview_requested(self, event: PreviewRequested) -> None:
        self.c.preview.set(Preview(event.line, event.upto, event.source,
                                   hover=not event.pin))

    @on(PreviewEnded)
    def _preview_ended(self) -> None:
        self.c.preview.end(hover=True)

