"""The game's headers (key ``i``): Event, Site, Date, Round, White, Black and the game's
others, edited in place, checked, and kept with the game (``s`` saves them; ``u`` undoes).

``Result`` is shown, not edited: a game file's result is its moves' (the writer writes
it, the reader refuses a file whose Result contradicts them), and ``Size`` is the board's.
"""

from __future__ import annotations

import datetime as _dt
import re

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label

from c4tui.bounded import shown

from ..widgets.prompt import LineInput
from .modal import OnceModalScreen

#: The headers always listed, in the order of the seven-tag roster of PGN.
STANDARD = ("Event", "Site", "Date", "Round", "White", "Black")
#: Set by the writer from the game itself: shown, never edited.
FIXED = ("Result", "Size")
#: What the writer puts in the file for a header left empty (Date: the day of saving).
DEFAULTS = {"Event": "Analysis", "White": "?", "Black": "?"}

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")


def date_error(value: str) -> str | None:
    """Why ``value`` is not a game date (``YYYY.MM.DD``, ``??`` or ``????`` for the parts
    not known: ``2024.??.??``); None: it is one."""
    m = _DATE.fullmatch(value)
    if m is None:
        return "expected YYYY.MM.DD, with ?? for a part not known (2024.05.??)"
    year, month, day = m.groups()
    if month != "??" and not 1 <= int(month) <= 12:
        return f"month {month} is not 01-12"
    if day != "??" and not 1 <= int(day) <= 31:
        return f"day {day} is not 01-31"
    if "?" not in value:
        try:
            _dt.date(int(year), int(month), int(day))
        except ValueError:
            return f"{value} is not a day of the calendar"
    return None


def name_error(name: str, taken: set[str]) -> str | None:
    """Why ``name`` cannot be a new header's name; None: it can."""
    if not _NAME.fullmatch(name):
        return "a name is a letter, then letters, digits or _"
    if name in FIXED:
        return f"{name} is set from the game itself"
    if name in taken:
        return f"{name} is listed above: edit it there"
    return None


class HeadersScreen(OnceModalScreen[dict[str, str] | None]):
    """Returns the game's new headers (in order; empty ones left out), or None on escape.
    ``result``: the moves' result, shown beside the fields.

    The values come from a game file: a field shows a value by the one rule for untrusted
    text (:func:`c4tui.bounded.shown`: ``\x1b`` for an escape character), so no byte of
    it reaches the terminal; a field left as shown keeps the value as it was (nothing is
    lost by opening and closing the screen), an edited one is taken as typed.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, headers: dict[str, str], result: str) -> None:
        super().__init__()
        self.headers, self.result = dict(headers), result
        others = [k for k in headers if k not in STANDARD and k not in FIXED]
        self.names = [*STANDARD, *others]  #: the editable fields, in order

    def compose(self) -> ComposeResult:
        with Vertical(id="headers"):
            yield Label("Game headers", id="headers-title")
            yield from self._fields()
            with Horizontal(classes="header-row"):
                yield Label("Result", classes="header-name")
                yield Label(f" {self.result}  (the moves' own)", id="header-result")
            yield Label("", id="headers-error")
            yield Label("tab: next field · enter: keep · escape: cancel · "
                        "empty: the default", id="headers-help")

    def _fields(self) -> ComposeResult:
        """One line per header, then one for a new header; they scroll when a game has
        more headers than the terminal has lines."""
        today = _dt.date.today().strftime("%Y.%m.%d")  # the writer's default
        with VerticalScroll(id="headers-fields", can_focus=False):
            for i, name in enumerate(self.names):
                with Horizontal(classes="header-row"):
                    yield Label(Text(name), classes="header-name")
                    yield LineInput(shown(self.headers.get(name, ""), None), id=f"header-{i}",
                                    placeholder=DEFAULTS.get(name, today if name == "Date"
                                                             else ""))
            with Horizontal(classes="header-row"):
                yield LineInput(placeholder="new name", id="header-new-name",
                                classes="header-name")
                yield LineInput(placeholder="its value", id="header-new-value")

    def on_mount(self) -> None:
        self.query_one("#header-0", Input).focus()  # not the scrolling box around it

    def _value(self, widget_id: str) -> str:
        return self.query_one(f"#{widget_id}", Input).value.strip()

    def collect(self) -> dict[str, str] | str:
        """The headers the fields say, or the one line saying what is wrong."""
        out = {}
        for i, name in enumerate(self.names):
            value = self._value(f"header-{i}")
            original = self.headers.get(name, "")
            if value == shown(original, None).strip():  # not edited: the value as it was
                value = original.strip()
            if name == "Date" and value and (why := date_error(value)) is not None:
                return f"Date {value}: {why}"
            if value:
                out[name] = value
        name, value = self._value("header-new-name"), self._value("header-new-value")
        if name or value:
            why = name_error(name, set(self.names)) if name else "the new header has no name"
            if why is not None:
                return f"new header {name!r}: {why}"
            if value:
                out[name] = value
        out.update((k, v) for k, v in self.headers.items() if k in FIXED)
        return out

    @on(Input.Submitted)
    def _submitted(self) -> None:
        headers = self.collect()
        if isinstance(headers, str):
            # it quotes a value (a date, a name) the file or the user wrote: not markup
            self.query_one("#headers-error", Label).update(Text(shown(headers)))
            self.app.bell()
            return
        self.dismiss(headers)

    def action_cancel(self) -> None:
        self.dismiss(None)
