"""The command palette (``ctrl+p``): Textual's, made safe against bursts and tiny terminals.

Two faults of Textual 8.2.8's :class:`~textual.command.CommandPalette`, worked around here
(the app pushes this subclass instead, see ``C4App.action_command_palette``):

* PageUp or PageDown when the list has no line of room (a 3-row terminal) indexes the
  list's empty line table: ``KeyError: 0`` inside ``OptionList._move_page``, and the app
  died. A page move without room does nothing here.
* Two Enters in one burst ran the chosen command twice and dismissed the palette twice
  (``ScreenStackError``): as every dialog of the app, the palette is dismissed once
  (:class:`~.modal.OnceModalScreen`), and an Enter after that is dropped.
"""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.widgets import Button, Input, OptionList

from .modal import OnceModalScreen


class Palette(CommandPalette, OnceModalScreen[None]):
    """Textual's command palette, with page moves that need room and one answer."""

    BINDINGS = [
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    def action_page(self, direction: int) -> None:
        """Move the highlight a page down (1) or up (-1), if the list shows any line."""
        commands = self.query_one(CommandList)
        if not commands.scrollable_content_region:  # no room: no page to move by
            return
        if direction > 0:
            commands.action_page_down()
        else:
            commands.action_page_up()

    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _answered_already(self, event: Input.Submitted | Button.Pressed
                          | OptionList.OptionSelected) -> None:
        """Runs before CommandPalette's handlers (a subclass's first): after the palette
        is dismissed, a queued Enter must not run the command again."""
        if self.dismissed:
            event.stop()
            event.prevent_default()
