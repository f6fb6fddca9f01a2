"""The base of every dialog of the app: a modal screen that is dismissed once.

Keys arrive in bursts: two Enters (a held key, a paste with newlines without bracketed
paste), Enter then Escape, a key and a click. Textual queues each of them on the dialog's
focused widget before the first one is handled, so the dialog's handler runs again after
it has dismissed itself; Textual's ``dismiss`` then pops the screen *below* (the main
screen: ``ScreenStackError``, the app dies). Here the first dismissal wins and every
later one is ignored, whichever handler or key sends it.

The keys of a burst also pass the dialog's widgets before the first is acted on, and
Textual checks their bindings only when they reach the app, against the screen on top
*then*: an Enter meant for the dialog played a move on the board once the dialog had
closed. So a dialog notes the keys that pass it, and when it closes they become stale
(:func:`stale_key`): the app drops them (``C4App._on_key``).
"""

from __future__ import annotations

from collections import deque

from textual import events
from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, ScreenResultType

#: Keys sent to dialogs that have closed since (the newest few: a burst is short; the
#: events themselves, compared by identity, so a key typed later is never taken for one).
_STALE: deque[events.Key] = deque(maxlen=64)


def stale_key(event: events.Key) -> bool:
    """True if ``event`` was sent to a dialog that has closed before the app got it."""
    return any(key is event for key in _STALE)


class OnceModalScreen(ModalScreen[ScreenResultType]):
    """A modal screen whose :meth:`dismiss` takes effect once; later calls do nothing."""

    _dismissed = False

    def __init__(self, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        self._keys: deque[events.Key] = deque(maxlen=64)  # the keys that passed it

    @property
    def dismissed(self) -> bool:
        """True once the screen has been dismissed (its answer is given)."""
        return self._dismissed

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        """Dismiss with ``result`` the first time; afterwards (a queued second Enter, a
        click after a key) do nothing. A screen that is not on top is never dismissed:
        Textual would pop the screen that is."""
        if self._dismissed or not self.is_active:  # not on top: popping would pop another
            return AwaitComplete.nothing()
        self._dismissed = True
        _STALE.extend(self._keys)
        self._keys.clear()
        return super().dismiss(result)

    def on_key(self, event: events.Key) -> None:
        """Note each key on its way to the app (see :func:`stale_key`)."""
        if self._dismissed:
            _STALE.append(event)
        else:
            self._keys.append(event)
