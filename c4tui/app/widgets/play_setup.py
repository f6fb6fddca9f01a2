"""The play-mode dialog: the side the engine plays, its strength (a level 1-10, or a node
limit), and the hints."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet

from c4tui.engine.board.position import PLAYER_NAMES
from c4tui.units import PERFECT, UnitError, parse_strength

from ..bridge.player import PlaySettings
from ..screens.modal import OnceModalScreen
from .prompt import LineInput

#: What the dialog returns: the engine's settings, and whether to hide the hints.
PlayChoice = tuple[PlaySettings, bool]


def _mark(button: Checkbox | RadioButton, on: str) -> None:
    """The toggle's glyph says its state, not only its colour (NO_COLOR): blank when
    off."""
    button.BUTTON_INNER = on if button.value else " "
    button.refresh()


#: Space toggles a box or picks a side; Enter is left to the dialog, which starts (its
#: footer says "enter: start"; Textual's toggles took Enter too, and nothing started).
_SPACE_TOGGLES: list[BindingType] = [Binding("space", "toggle_button", "Toggle", show=False)]


class _Box(Checkbox, inherit_bindings=False):
    BUTTON_INNER = " "
    BINDINGS = _SPACE_TOGGLES

    def watch_value(self) -> None:
        super().watch_value()  # Textual's: posts Changed
        _mark(self, "X")


class _Radio(RadioButton):
    BUTTON_INNER = " "

    def watch_value(self) -> None:
        super().watch_value()
        _mark(self, "●")


class _Sides(RadioSet, inherit_bindings=False):
    """The side the engine plays: arrows move, space picks, Enter starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "next_button", "Next option", show=False),
        Binding("up,left", "previous_button", "Previous option", show=False),
        *_SPACE_TOGGLES]


class PlaySetupScreen(OnceModalScreen[PlayChoice | None]):
    """Returns the choice, or None on escape. A strength that cannot be used is said on
    the dialog's last line, and the dialog stays."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("enter", "start", "Start")]

    def __init__(self, side: int, strength: str = PERFECT, vary: bool = False,
                 hide_hints: bool = True) -> None:
        """``side``: the engine's side proposed (0 White, 1 Black); ``strength`` as typed."""
        super().__init__()
        self.side, self.strength, self.vary, self.hide_hints = side, strength, vary, hide_hints

    def compose(self) -> ComposeResult:
        with Vertical(id="play-setup"):
            yield Label("Play against the engine", id="play-title")
            with Horizontal(id="play-side-row"):
                yield Label("The engine plays ", classes="play-label")
                with _Sides(id="play-side"):
                    for i, name in enumerate(PLAYER_NAMES):
                        yield _Radio(name, value=i == self.side, id=f"play-{name.lower()}")
            with Horizontal(id="play-strength-row"):
                yield Label("Strength ", classes="play-label")
                yield LineInput(value=self.strength, placeholder="level 1-10 (10: perfect)",
                                id="play-strength")
            yield Label("a level, 1 (beginner) to 10 (perfect); or nodes: 100k",
                        classes="play-help")
            yield _Box("vary: perfect play picks at random among equal moves",
                       self.vary, id="play-vary")
            yield _Box("hide the hints (values, verdicts, graph, log; h toggles)",
                       self.hide_hints, id="play-hide-hints")
            with Horizontal(id="play-buttons"):
                yield Button("Start", variant="primary", id="play-start")
                yield Button("Cancel", id="play-cancel")
            yield Label("enter: start   tab / shift+tab: next / previous   esc: cancel",
                        classes="play-help")
            yield Label("", id="play-error")

    def on_mount(self) -> None:
        self.query_one("#play-strength", Input).focus()

    def choice(self) -> PlayChoice:
        """What the dialog says now; :class:`UnitError` if the strength cannot be used."""
        strength = parse_strength(self.query_one("#play-strength", Input).value, "strength")
        side = 1 if self.query_one("#play-black", RadioButton).value else 0
        vary = self.query_one("#play-vary", Checkbox).value
        return (PlaySettings(side, strength, vary),
                self.query_one("#play-hide-hints", Checkbox).value)

    @on(Input.Submitted)
    @on(Button.Pressed, "#play-start")
    def action_start(self) -> None:
        if self.dismissed:  # a second enter queued behind the first
            return
        try:
            choice = self.choice()
        except UnitError as exc:
            self.query_one("#play-error", Label).update(str(exc))
            self.app.bell()
            return
        self.dismiss(choice)

    @on(Button.Pressed, "#play-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
