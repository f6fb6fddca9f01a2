"""The command palette (``ctrl+p``): Textual's, made safe against bursts and tiny terminals.

Three faults of Textual 8.2.8's :class:`~textual.command.CommandPalette`, worked around
here (the app pushes this subclass instead, see ``C4App.action_command_palette``):

* PageUp or PageDown when the list has no line of room (a 3-row terminal) indexes the
  list's empty line table: ``KeyError: 0`` inside ``OptionList._move_page``, and the app
  died. A page move without room does nothing here.
* Two Enters in one burst ran the chosen command twice and dismissed the palette twice
  (``ScreenStackError``): as every dialog of the app, the palette is dismissed once
  (:class:`~.modal.OnceModalScreen`), and an Enter after that is dropped.
* A burst that types into the palette and closes it (``x`` then Escape) queues the
  input's ``Changed`` behind the Escape: Textual then started a new search on the closed
  palette, whose worker found the palette's widgets gone (``WorkerFailed``, ``NoMatches
  'CommandList' on Palette``) and the app died (issue 33, 1 in 3 bursts of 800 keys).
  Here the palette's answer ends its searches: dismissing it cancels the search worker
  and the "no matches" countdown, a ``Changed`` after that starts none, and the palette's
  watchers and countdown do nothing once its list is gone (a search racing the app's
  end).
"""

from __future__ import annotations

from textual import on
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.widgets import Button, Input, OptionList

from .modal import OnceModalScreen


class Palette(CommandPalette, OnceModalScreen[None]):
    """Textual's command palette, with page moves that need room, one answer, and no
    search once it has answered."""

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

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Dismiss once (see :class:`~.modal.OnceModalScreen`), ending the palette's
        search first: its worker and timer must not outlive the palette's widgets."""
        if not self.dismissed and self.is_active:
            self._cancel_gather_commands()
            self._stop_no_matches_countdown()
        return super().dismiss(result)

    @on(Input.Submitted)
    @on(Input.Changed)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _answered_already(self, event: Input.Submitted | Input.Changed | Button.Pressed
                          | OptionList.OptionSelected) -> None:
        """Runs before CommandPalette's handlers (a subclass's first): after the palette
        is dismissed, a queued Enter must not run the command again, nor queued typing
        start a search."""
        if self.dismissed:
            event.stop()
            event.prevent_default()

    def _has_list(self) -> bool:
        """Whether the palette's widgets are still there (not once it is being removed)."""
        return bool(self.query(CommandList))

    # Textual's watchers and countdown query the list unconditionally; the search worker
    # sets the flags they watch after each batch and at its end, and the app's end (ctrl+q
    # with the palette open) removes the list under a running worker.
    def _watch__list_visible(self) -> None:
        if self._has_list():
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._has_list():
            await super()._watch__show_busy()

    def _start_no_matches_countdown(self, search_value: str) -> None:
        if self._has_list():
            super()._start_no_matches_countdown(search_value)
