"""The pipe to an external UGI engine, as the app uses it (for ExternalSearch).

The process core (start, write, ask with a timeout, read, die) is
:class:`c4tui.ugi.client.UgiClient`, shared with ``c4tui match``. :class:`UgiPipe` adds
what the app needs of it: ``info`` and ``bestmove`` lines go to the subclass's hooks,
anything else unexpected becomes a note, and :meth:`UgiPipe.status` is what the status
line says (a note stays :data:`NOTE_SECONDS`). Every word of the engine's in a note, its
name or an error is escaped and cut (:func:`c4tui.ugi.client.shorten`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.ugi.client import EngineGone, UgiClient

from .ugi_info import KNOWN_WORDS, Info, InfoError, parse_info, shorten

__all__ = ["EngineGone", "ExternalStatus", "UgiPipe"]

#: How long a note (garbage, an ``info string``) stays in the status line.
NOTE_SECONDS = 20.0
#: The external process runs this much below the app's CPU priority (the UI wins the
#: cores; capped at 19, never above the app's own).
EXTERNAL_NICE = 5


@dataclass(frozen=True)
class ExternalStatus:
    """What the status line says about the external engine."""

    name: str  #: its ``id name`` (the command until it says)
    ready: bool  #: the handshake is done
    failed: bool  #: gone (crashed, killed after a timeout, never started)
    message: str  #: why it failed, or a recent note; "" if nothing to say


class UgiPipe(UgiClient):
    """One engine process. Subclasses handle ``info``/``bestmove`` and the end of a search
    (:meth:`on_info`, :meth:`on_bestmove`, :meth:`on_gone`), called with ``_cond`` held."""

    ERROR_PREFIX = "external engine"

    def __init__(self, argv: Sequence[str]) -> None:
        super().__init__(argv, nice=EXTERNAL_NICE)

    # ------------------------------------------------------------------ hooks
    def on_info(self, info: Info) -> str:
        """An ``info`` line; a complaint about it, or ""."""
        return ""

    def on_bestmove(self, move: str | None) -> str:
        return ""

    def on_line(self, word: str, line: str) -> str:
        if word not in KNOWN_WORDS:
            return f"ignored unexpected output '{shorten(line)}'"
        if word == "info":
            try:
                info = parse_info(line)
            except InfoError as exc:
                return str(exc)
            note = f"says: {shorten(info.string, 60)}" if info.string else ""
            return self.on_info(info) or note
        if word == "bestmove":
            parts = line.split()
            return self.on_bestmove(parts[1] if len(parts) > 1 else None)
        return ""

    # ------------------------------------------------------------------ status
    def status(self) -> ExternalStatus:
        with self._cond:
            now = time.monotonic()
            note = self._note if now - self._note_at < NOTE_SECONDS else ""
            if not note and not self.ready and self._asking is not None:
                answer, since = self._asking  # a slow start says what it waits for
                note = f"waiting for {answer} ({now - since:.0f} s)" if now - since >= 2 \
                    else ""
            return ExternalStatus(self.name, self.ready, bool(self.error),
                                  self.error or note)
