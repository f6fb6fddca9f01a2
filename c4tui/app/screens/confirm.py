"""A yes/no question in a modal screen (replace an existing file? restore a session?
quit with unsaved changes?)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from .modal import OnceModalScreen


class ConfirmScreen(OnceModalScreen[bool]):
    """Returns True for yes (``y`` or the Yes button), False for no (``n``, escape, No)."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    #confirm {
        width: 64;
        height: auto;
        border: thick $warning;
        background: $surface;
        padding: 0 1;
    }
    #confirm-question {
        width: 100%;  /* a long question wraps instead of being cut */
    }
    #confirm-buttons {
        height: 1;
        margin-top: 1;
    }
    #confirm-buttons Button {
        width: auto;
        min-width: 0;
        margin-right: 2;
    }
    """

    AUTO_FOCUS = "#confirm-no"  # enter right away keeps the file
    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            # not markup: a question may quote a file name ([b] in a name stays [b])
            yield Label(Text(self.question), id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes (y)", id="confirm-yes", compact=True)
                yield Button("No (n)", id="confirm-no", compact=True)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)  # once (OnceModalScreen): a key and a click may both be queued


class QuitScreen(ConfirmScreen):
    """``q`` with unsaved changes: True to quit anyway (``y``, or ``q`` again)."""

    BINDINGS = [Binding("q", "answer(True)", "quit")]

    def __init__(self) -> None:
        super().__init__("The game has unsaved changes (s saves it). Quit anyway?\n"
                         "y or q: quit   n or esc: stay")
