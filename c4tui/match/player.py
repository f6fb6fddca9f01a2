"""One engine of a match: the UGI client (:class:`c4tui.ugi.engine.Engine`) asked for moves.

The handshake, the options, the ``go`` and every wait are the client's (one set of
:class:`~c4tui.ugi.engine.Timeouts`), and so are the bounds on what an engine prints (of
its ``option`` lines only the names the user set with ``--option``, of its ``info string
error`` lines the first, escaped and cut). A :class:`Player` adds the match's view: its
label, its limits per move, and its move as the word it wrote.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits
from c4tui.ugi.engine import Engine, Timeouts

#: ``c4tui engine`` (the installed module, as this Python runs it): either engine's default.
OWN_ENGINE = (sys.executable, "-m", "c4tui.ugi")
#: Seconds a move may take beyond its movetime before the engine loses on time.
DEFAULT_TIMEOUT = Timeouts.move


@dataclass(frozen=True)
class EngineSpec:
    """How to run one engine: its command, options and the limits of each move."""

    argv: tuple[str, ...] = OWN_ENGINE
    options: Mapping[str, str] = field(default_factory=dict)
    #: each move's bounds, sent as its ``go`` (``time``: the movetime); ``Limits()``: none
    limits: Limits = Limits()
    timeout: float = DEFAULT_TIMEOUT  #: seconds a move may take beyond ``limits.time``

    def limits_text(self) -> str:
        """``20,000 nodes``, ``100 ms`` or both (per move)."""
        nodes, time = self.limits.nodes, self.limits.time
        parts = [f"{nodes:,} nodes"] if nodes is not None else []
        parts += [f"{round(time * 1000):,} ms"] if time is not None else []
        return ", ".join(parts) + " per move" if parts else "no limit"


class Player(Engine):
    """An engine of the match: :meth:`start` (handshake, options), :meth:`new_game`,
    :meth:`best_move`, :meth:`quit`; each raises :class:`~c4tui.ugi.client.EngineGone`
    with one line on a crash or a wait that ran out."""

    def __init__(self, spec: EngineSpec, label: str) -> None:
        super().__init__(spec.argv, options=spec.options,
                         timeouts=Timeouts(move=spec.timeout))
        self.spec = spec
        self.label = label  #: "A" or "B"

    def best_move(self, pos: Position) -> str:
        """The engine's move in ``pos`` within the spec's limits, as it wrote it ("": a
        ``bestmove`` without one)."""
        return self.play(pos, self.spec.limits).move or ""
