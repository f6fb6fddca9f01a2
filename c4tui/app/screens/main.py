"""The main screen: the panels' layout and the workstation's keys.

Each key runs one controller method (``controllers/``); the board owns the cursor keys
(← → enter, see widgets/board.py), the app only quit and ``?``. The keys here work
whichever panel has focus (a click on the graph or the log focuses it), so the column
keys stay on the screen rather than on the board. Messages from the panels (a click on a
column, a move, a ply; a preview) arrive here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from c4tui.engine.geometry import COLUMN_NAMES, IS_DEFAULT, WIDTH
from c4tui.engine.position import Position

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
from ..engine_bridge import NOT_WITH_EXTERNAL
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
from ..widgets.board import (
    BIG_TOP,
    KEY_COLUMNS,
    TOP,
    WIDE_TOP,
    board_box,
    terminal_needed,
    too_small_text,
)

#: Only with an external engine (see :meth:`SearchControl.key_state`): space stops, and
#: n N stay in the footer greyed out.
EXTERNAL_BINDINGS = [
    Binding("space", "external_stop", "stop"),
    Binding("n", "not_external", "step", show=False),
    Binding("N", "not_external", "step N nodes", show=False),
]


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

    BINDINGS = [
        *[Binding(str(c + 1), f"play({c})", f"play {c + 1}", show=False)
          for c in range(KEY_COLUMNS)],
        Binding("up", "goto_ply(-1, True)", "previous ply", show=False),
        Binding("down", "goto_ply(1, True)", "next ply", show=False),
        Binding("home", "goto_ply(0)", "first ply", show=False),
        Binding("end", "goto_ply(99)", "last ply", show=False),
        Binding("u", "undo", "undo"),
        Binding("ctrl+r", "redo", "redo", show=False),
        Binding("t", "toggle_threats", "threats"),
        Binding("F", "flip", f"flip the board (mirror: {COLUMN_NAMES[-1]} on the left)",
                show=False),
        Binding("b", "toggle_best", "best move on the board", show=False),
        Binding("i", "edit_headers", "game headers (event, players, date)", show=False),
        Binding("R", "review", "review game", show=False),
        Binding("space", "toggle_pause", "pause"),
        Binding("n", "step_iteration", "step"),
        *EXTERNAL_BINDINGS,
        Binding("N", "step_nodes", "step N nodes", show=False),
        Binding("x", "stop", "stop", show=False),
        Binding("g", "analyse", "analyse now", show=False),
        Binding("a", "toggle_auto", "auto", show=False),
        Binding("l", "node_limit", "node limit", show=False),
        Binding("H", "hash_size", "hash size", show=False),
        Binding("B", "toggle_book", "books for the search on/off", show=False),
        Binding("m", "cycle_multipv", "search lines 1/2/3/all", show=False),
        Binding("o", "load", "open"),
        Binding("s", "save", "save"),
        Binding("O", "recent", "recent files", show=False),
        Binding("G", "games", "games list", show=False),
        Binding("E", "explorer", "opening explorer", show=False),
        Binding("e", "enter_moves", "enter moves", show=False),
        Binding("c", "copy", "copy", show=False),
        Binding("C", "copy_game", "copy game file", show=False),
        Binding("L", "copy_link", "copy gamesolver.org link", show=False),
        Binding("S", "set_up", "set up a position", show=False),
        Binding("V", "versus", "engine vs engine (pause, resume)", show=False),
        Binding("backspace", "take_back", "take back last move", show=False),
        Binding("p", "play_mode", "play mode", show=False),
        Binding("h", "toggle_hints", "hints", show=False),
        Binding("v", "preview_line", "preview line", show=False),
        Binding("z", "preview_path", "preview search path", show=False),
        Binding("comma", "preview_step(-1)", "preview back", show=False),
        Binding("full_stop", "preview_step(1)", "preview forward", show=False),
        Binding("escape", "preview_end", "end preview", show=False),
        Binding("left_square_bracket", "switch_variation(-1)", "previous variation",
                show=False, key_display="["),
        Binding("right_square_bracket", "switch_variation(1)", "next variation",
                show=False, key_display="]"),
        Binding("P", "promote", "promote variation", show=False),
        Binding("D", "delete_variation", "delete variation", show=False),
        Binding("semicolon", "comment", "comment move", show=False, key_display=";"),
        Binding("T", "trainer", "puzzle trainer", show=False),
    ]

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
        greyed out (None) so that their :data:`EXTERNAL_BINDINGS` twins say why."""
        return self.c.search.key_state(action)

    def commands(self) -> Iterator[SystemCommand]:
        """The command palette's entries: a key of the board or the screen each (the
        column keys not listed: one per column can be typed), with the engine's say."""
        seen = set()
        for node in (self.board, self):
            for b in node.BINDINGS:
                assert isinstance(b, Binding)
                title = self._key_help(b)  # None: not with this engine
                if b.action.startswith("play(") or b.action in seen or title is None:
                    continue
                seen.add(b.action)
                yield SystemCommand(title, f"key: {b.key_display or b.key}",
                                    partial(self.app.run_action, b.action, node))
        for c in range(WIDTH):
            yield SystemCommand(f"Play column {c + 1}", f"key: {c + 1}",
                                partial(self.app.run_action, f"play({c})", self),
                                discover=False)

    def _key_help(self, binding: Binding) -> str | None:
        """A key's title in the command palette; None: not listed (it does not apply)."""
        state = self.check_action(binding.action.split("(")[0], ())
        if state is False or binding.action == "not_external":
            return None
        title = binding.description[:1].upper() + binding.description[1:]
        return title if state else f"{title} ({NOT_WITH_EXTERNAL})"

    def action_play(self, col: int) -> None:
        if self.c.tree.play_column(col):
            self.board.cursor = col

    def action_goto_ply(self, ply: int, relative: bool = False) -> None:
        self.c.tree.goto(ply, relative)

    def action_undo(self) -> None:
        self.c.tree.undo()

    def action_redo(self) -> None:
        self.c.tree.redo()

    def action_take_back(self) -> None:
        self.c.tree.take_back()

    def action_switch_variation(self, step: int) -> None:
        self.c.tree.switch_variation(step)

    def action_promote(self) -> None:
        self.c.tree.promote()

    def action_delete_variation(self) -> None:
        self.c.tree.delete_variation()

    def action_comment(self) -> None:
        self.c.tree.comment()

    def action_trainer(self) -> None:
        from .trainer import TrainerScreen  # (its controller reads the puzzles: on use)

        self.c.host.ask(TrainerScreen(TrainerControl()), lambda _: None)

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

    def action_edit_headers(self) -> None:
        self.c.tree.edit_headers()

    def action_review(self) -> None:
        self.c.review.start()

    def action_toggle_pause(self) -> None:
        self.c.search.toggle_pause()

    def action_external_stop(self) -> None:
        self.c.search.external_stop()

    def action_not_external(self) -> None:
        self.c.search.not_external()

    def action_step_iteration(self) -> None:
        self.c.search.step_iteration()

    def action_step_nodes(self) -> None:
        self.c.search.step_nodes()

    def action_stop(self) -> None:
        self.c.search.stop()

    def action_analyse(self) -> None:
        self.c.search.analyse()

    def action_toggle_auto(self) -> None:
        self.c.search.toggle_auto()

    def action_node_limit(self) -> None:
        self.c.search.node_limit()

    def action_hash_size(self) -> None:
        self.c.search.hash_size()

    def action_toggle_book(self) -> None:
        self.c.search.toggle_book()

    def action_cycle_multipv(self) -> None:
        self.c.search.cycle_multipv()

    def action_load(self) -> None:
        self.c.files.open()

    def action_save(self) -> None:
        self.c.files.save()

    def action_recent(self) -> None:
        self.c.files.recent()

    def action_games(self) -> None:
        self.c.files.games()

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

    def action_enter_moves(self) -> None:
        self.c.files.enter_moves()

    def action_copy(self) -> None:
        self.c.files.copy()

    def action_versus(self) -> None:
        self.c.play.versus_key()

    def action_set_up(self) -> None:
        self.c.files.set_up()

    def action_copy_link(self) -> None:
        self.c.files.copy_link()

    def action_copy_game(self) -> None:
        self.c.files.copy_game()

    def action_play_mode(self) -> None:
        self.c.play.toggle_mode()

    def action_toggle_hints(self) -> None:
        self.c.play.toggle_hints()

    def action_preview_line(self) -> None:
        self.c.preview.line(self.board.cursor)

    def action_preview_path(self) -> None:
        self.c.preview.path()

    def action_preview_step(self, delta: int) -> None:
        self.c.preview.step(delta, self.board.cursor)

    def action_preview_end(self) -> None:
        self.c.preview.end()

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
        self.query_one(AnalysisPanel).cursor = event.col  # its line, at once

    @on(PreviewRequested)
    def _preview_requested(self, event: PreviewRequested) -> None:
        self.c.preview.set(Preview(event.line, event.upto, event.source,
                                   hover=not event.pin))

    @on(PreviewEnded)
    def _preview_ended(self) -> None:
        self.c.preview.end(hover=True)

