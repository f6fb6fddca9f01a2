"""Why (key ``w``): Allis's rules as a checked certificate, in the threat panel.

``w`` turns the view on and off; ``W`` selects the next rule (and after the last, none),
whose refuted groups the panel then lists. While the view is on, every viewed position is
explained on one daemon thread (``engine/explain``: pure Python, within
:data:`BUDGET` seconds) and the certificate is checked again there by the independent
checker; the UI thread never runs that work. Each request has a serial number: a result
for a position no longer viewed is dropped, so a slow explanation never shows on the
position after it. A certificate is shown only when the checker confirmed it, and only
when it agrees with the exact value the app shows; a disagreement is a bug, logged and
said, and neither claim is shown.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine.board.position import MOVE_CHARS, PLAYER_NAMES, Position
from c4tui.engine.explain import Certificate, ProofNode, check, explain
from c4tui.engine.seam import Score

from ..widgets.threat_panel import WhyShown, claim_contradicts
from .host import Host

#: The proof search's budget, seconds (issue 35: the app waits no longer than this).
BUDGET = 1.0
LOG = logging.getLogger("c4tui.why")

Explain = Callable[[Position, int | None, float], Certificate]


@dataclass(frozen=True)
class _Result:
    serial: int
    position: Position
    cert: Certificate | None  #: None: the explanation failed (``error`` says why)
    confirmed: bool  #: the independent checker confirmed it (again, on this thread)
    error: str = ""


def _find(pos: Position, side: int | None, budget: float) -> Certificate:
    return explain(pos, side, budget)


def verdict_words(proves: str) -> str:
    """A certificate's claim in the exact value's words: ``Black at least draws``."""
    return proves[:1].upper() + proves[1:]


def contradicts(proves: str, pos: Position, exact: Score | None) -> bool:
    """Whether the certificate's claim ``proves`` (``"black at least draws"``...) and the
    position's proven value ``exact`` (its side to move's view) cannot both be true."""
    return exact is not None and exact.proven and claim_contradicts(proves, pos, exact.sign())


def first_line(root: Position, proof: ProofNode) -> tuple[ProofNode, list[str]]:
    """The tree's first leaf and the moves to it (squares), following the first child."""
    node = proof
    while node.children:
        node = node.children[0]
    cols = [MOVE_CHARS.index(ch) for ch in node.moves[len(root.digits()):]]
    return node, root.line_squares(cols)


class WhyControl:
    """The why view's state and its worker thread; the app draws :meth:`shown`."""

    def __init__(self, host: Host, on_update: Callable[[], None],
                 find: Explain = _find, budget: float = BUDGET) -> None:
        """``on_update``: called on the worker thread when a result is there (the app
        posts a redraw); ``find``: the explainer (engine/explain's)."""
        self.host = host
        self.on = False
        self.selected: int | None = None  #: the rule whose refuted groups are listed
        self.budget = budget
        self._find = find
        self._on_update = on_update
        self._cond = threading.Condition()
        self._serial = 0
        self._wanted: tuple[int, Position] | None = None
        self._result: _Result | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._said: set[int] = set()  # serials whose disagreement was said (once each)
        self._count = 0  # the rules shown last (W steps through them)

    # ------------------------------------------------------------------ keys
    def toggle(self, pos: Position, hints: bool) -> None:
        """``w``: the view on (explaining ``pos``) or off."""
        if not self.on and not hints:
            self.host.error("why: the hints are hidden (h shows them)")
            return
        self.on = not self.on
        self.selected = None
        if self.on:
            self._want(pos)
        self.host.state_changed()

    def next_rule(self) -> None:
        """``W``: the next rule's refuted groups (after the last: none)."""
        if not self.on:
            self.host.error("why: off (w shows it)")
            return
        count = self._count
        if count == 0:
            self.host.error("why: no rules to step through")
            return
        self.selected = 0 if self.selected is None else self.selected + 1
        if self.selected >= count:
            self.selected = None
        self.host.state_changed()

    def position_changed(self, pos: Position) -> None:
        """The viewed position changed: explain it (the older request is dropped)."""
        if self.on:
            self.selected = None
            self._want(pos)

    # ------------------------------------------------------------------ what is shown
    def shown(self, pos: Position, exact: Score | None, hints: bool) -> WhyShown | None:
        """What the panel and the board show for ``pos`` (None: the view is off, or the
        hints are hidden); ``exact``: the proven value the app shows (side to move)."""
        why = self._shown(pos, exact, hints)
        self._count = 0 if why is None else len(why.rules)
        return why

    def _shown(self, pos: Position, exact: Score | None, hints: bool) -> WhyShown | None:
        if not self.on or not hints:
            return None
        with self._cond:
            result = self._result
            current = result is not None and result.serial == self._serial \
                and result.position == pos
        if result is None or not current:
            return WhyShown(pos.digits(), "", busy=True)
        cert = result.cert
        if cert is None:
            return WhyShown(pos.digits(), f"the rules failed: {result.error}")
        if cert.proves is None:
            return WhyShown(pos.digits(), _nothing(cert, self.budget))
        if not (cert.checked and result.confirmed):
            self._say_once(result.serial, f"why: the checker refused a certificate for "
                           f"{pos.digits() or 'the empty board'} (a bug; not shown)")
            return WhyShown(pos.digits(), "the checker refused the proof (a bug)")
        if contradicts(cert.proves, pos, exact):
            assert exact is not None
            self._say_once(result.serial, f"why: the rules' '{cert.proves}' and the exact "
                           f"value '{exact.words(pos)}' disagree in "
                           f"{pos.digits() or 'the empty board'} (a bug; neither shown)")
            return WhyShown(pos.digits(), "the rules and the exact value disagree (a bug)")
        assert cert.proof is not None
        leaf, line = first_line(pos, cert.proof)
        return WhyShown(pos.digits(), verdict_words(cert.proves), tree=cert.tree,
                        line=tuple(line), rules=tuple(leaf.rules),
                        side=PLAYER_NAMES[0 if cert.side == "white" else 1],
                        selected=self.selected)

    def _say_once(self, serial: int, text: str) -> None:
        if serial not in self._said:
            self._said.add(serial)
            LOG.error(text)
            self.host.warn(text)

    # ------------------------------------------------------------------ the thread
    def _want(self, pos: Position) -> None:
        with self._cond:
            self._serial += 1
            self._wanted = (self._serial, pos.copy())
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="c4tui-why",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()

    def close(self) -> None:
        """Stop the thread (after the explanation it is in, at most the budget)."""
        with self._cond:
            self._closed = True
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._wanted is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                assert self._wanted is not None
                serial, pos = self._wanted
                self._wanted = None
            try:
                cert: Certificate | None = self._find(pos.copy(), None, self.budget)
                assert cert is not None
                # checked again here, whatever explain says: never shown unchecked
                confirmed = cert.proves is None or check(pos.copy(), cert)
                result = _Result(serial, pos, cert, confirmed)
            except Exception as exc:  # noqa: BLE001 - said in the panel, the app goes on
                LOG.exception("why: explaining %s", pos.digits())
                result = _Result(serial, pos, None, False, f"{type(exc).__name__}: {exc}")
            with self._cond:
                if serial != self._serial:
                    continue  # the position changed meanwhile: a stale result is dropped
                self._result = result
            self._on_update()


def _nothing(cert: Certificate, budget: float) -> str:
    """What the panel says when nothing is proven: ``no proof within 1 s`` (or the
    reason: a finished game, an odd number of rows)."""
    if any(n.startswith("no proof") for n in cert.notes):
        return f"no proof within {budget:g} s"
    return "; ".join(cert.notes) or "nothing proven"
