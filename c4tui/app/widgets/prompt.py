"""A one-line question in a modal screen (node limit, hash size, files, moves)."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from ..screens.modal import OnceModalScreen


class LineInput(Input):
    """An :class:`Input` that submits at the Enter itself, in the order of the keys.

    Textual's Input submits through a binding, checked when the Enter has bubbled up to
    the app: the keys queued behind it (a paste with newlines, without bracketed paste)
    are typed into the box first, so ``44⏎5⏎`` answered ``445``. Here the answer is the
    first line, ``44``; what follows goes to the closed dialog and is dropped. Tab and
    shift+tab move the focus here too, so ``Ann⇥Bob`` typed fast fills two fields.
    """

    async def _on_key(self, event: events.Key) -> None:
        # Textual runs Input._on_key after this one, unless the default is prevented
        focused = self.screen.focused
        if focused is not None and focused is not self:
            # queued here before a tab moved the focus on: the key is the new field's
            event.stop()
            event.prevent_default()
            focused._forward_event(events.Key(event.key, event.character))
        elif event.key == "enter":
            event.stop()
            event.prevent_default()
            await self.action_submit()
        elif event.key in ("tab", "shift+tab"):
            event.stop()
            event.prevent_default()
            if event.key == "tab":
                self.screen.focus_next()
            else:
                self.screen.focus_previous()


class PromptScreen(OnceModalScreen[str | None]):
    """Returns the text typed, or None on escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text, self.value, self.placeholder = title, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Label(self.title_text, id="prompt-title")
            yield LineInput(value=self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("enter: ok   escape: cancel", id="prompt-help")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
