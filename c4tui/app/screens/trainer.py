"""The puzzle trainer (key ``T``): a puzzle on a board, the user finds the one move that
keeps the win (or the draw). Column keys or a click play; ``h`` hints (the theme, then
the column), ``n`` the next puzzle, ``escape`` back to the analysis board. A wrong move is
refuted on the board by the exact solver, in a worker thread (never the UI's). The state
and the SM-2 schedule are :class:`~c4tui.app.controllers.trainer.TrainerControl`'s."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from c4tui.bounded import shown
from c4tui.engine.board.position import Position

from ..controllers.trainer import Phase, Refutation, TrainerControl
from ..messages import ColumnChosen
from ..widgets import BoardView, KeyBar
from ..widgets.board_size import KEY_COLUMNS, board_box


class TrainerScreen(Screen[None]):
    """The trainer over the main screen; escape dismisses it."""

    DEFAULT_CSS = """
    #trainer-top { height: auto; }
    #trainer-board { border: round $primary; padding: 0 1; }
    #trainer-board:focus { border: round $accent; }
    #trainer-side { width: 1fr; height: auto; border: round $primary; padding: 0 1; }
    #trainer-task { text-style: bold; }
    #trainer-keys { color: $text-muted; }
    """

    BINDINGS = [
        *[Binding(str(c + 1), f"play({c})", f"play {c + 1}", show=False)
          for c in range(KEY_COLUMNS)],
        Binding("h", "hint", "hint"),
        Binding("n", "next", "next puzzle"),
        Binding("escape", "leave", "back to the board"),
    ]

    def __init__(self, control: TrainerControl) -> None:
        super().__init__()
        self.control = control

    def compose(self) -> ComposeResult:
        with Horizontal(id="trainer-top"):
            yield BoardView(id="trainer-board")
            with Vertical(id="trainer-side"):
                yield Static(id="trainer-task")
                yield Static(id="trainer-info")
                yield Static(f"1-{KEY_COLUMNS} or a click: play   h: hint   n: next   "
                             "esc: back",
                             id="trainer-keys")
        yield KeyBar(compact=True)

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        width, height = board_box(False)
        board.styles.width, board.styles.height = width, height
        board.border_title = "puzzle"
        self.query_one("#trainer-side").border_title = "trainer"
        board.focus()
        self.show()

    def show(self) -> None:
        """Draw the controller's state."""
        c = self.control
        self.query_one(BoardView).position = c.board.copy()
        self.query_one("#trainer-task", Static).update(c.task())
        lines = [c.message]
        if c.hint_text():
            lines.append(f"hint: {c.hint_text()}")
        lines.append(f"streak {c.streak} (best {c.progress.best})")
        self.query_one("#trainer-info", Static).update("\n".join(line for line in lines
                                                                 if line))
        for note in c.take_notes():
            # a bad line of the puzzle file, quoted with the file's name: not our text
            self.notify(shown(note), severity="warning", timeout=6, markup=False)

    # ------------------------------------------------------------------ keys
    def action_play(self, col: int) -> None:
        board = self.query_one(BoardView)
        if self.control.play(col):
            self._refute(self.control.board.copy())
        board.cursor = col
        self.show()

    def action_hint(self) -> None:
        if not self.control.hint():
            self.notify("no more hints" if self.control.phase is Phase.SOLVING
                        else "no puzzle to hint at", timeout=3)
        self.show()

    def action_next(self) -> None:
        self.control.next()
        self.show()

    def action_leave(self) -> None:
        self.dismiss(None)

    @on(ColumnChosen)
    def _column_chosen(self, event: ColumnChosen) -> None:
        event.stop()
        self.action_play(event.col)

    @work(thread=True, exit_on_error=False, group="refute")
    def _refute(self, board: Position) -> None:
        try:
            r = self.control.refute()
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            r = Refutation(None, f"the engine failed: {exc}")
        self.app.call_from_thread(self._refuted, r, board)

    def _refuted(self, r: Refutation, board: Position) -> None:
        if self.is_attached:
            self.control.refuted(r, board)
            self.show()
