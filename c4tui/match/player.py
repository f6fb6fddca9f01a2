"""One engine of a match: a UGI process asked for moves, every wait bounded.

What an engine prints is kept only as far as the match needs it, so a flooding engine
cannot grow our memory: of its ``option`` lines only the names the user set with
``--option`` (at most as many as were given), of its ``info string error`` lines the first,
escaped and cut (:func:`c4tui.ugi.client.shorten`); the rest is the client's, bounded there.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from c4tui.engine.seam import Limits
from c4tui.ugi.client import EngineGone, UgiClient, shorten
from c4tui.ugi.limits import format_go

#: ``c4tui engine`` (the installed module, as this Python runs it): either engine's default.
OWN_ENGINE = (sys.executable, "-m", "c4tui.ugi")
#: Waits for the handshake: ``ugiok``, and the first ``readyok`` (which may compile the
#: kernels on a cold numba cache: about a minute on two busy cores).
UGI_TIMEOUT = 30.0
READY_TIMEOUT = 300.0
#: Seconds a move may take beyond its movetime before the engine loses on time.
DEFAULT_TIMEOUT = 10.0
#: How much of an engine's ``info string error`` an error message quotes.
REFUSED_CHARS = 200


@dataclass(frozen=True)
class EngineSpec:
    """How to run one engine: its command, options and the limits of each move."""

    argv: tuple[str, ...] = OWN_ENGINE
    options: Mapping[str, str] = field(default_factory=dict)
    #: each move's bounds, sent as its ``go`` (``time``: the movetime); ``Limits()``: none
    limits: Limits = Limits()
    timeout: float = DEFAULT_TIMEOUT  #: seconds a move may take beyond ``limits.time``

    @property
    def go(self) -> str:
        """The ``go`` command of every move."""
        return format_go(self.limits)

    @property
    def move_timeout(self) -> float:
        return (self.limits.time or 0.0) + self.timeout

    def limits_text(self) -> str:
        """``20,000 nodes``, ``100 ms`` or both (per move)."""
        nodes, time = self.limits.nodes, self.limits.time
        parts = [f"{nodes:,} nodes"] if nodes is not None else []
        parts += [f"{round(time * 1000):,} ms"] if time is not None else []
        return ", ".join(parts) + " per move" if parts else "no limit"


class Player(UgiClient):
    """An engine process: :meth:`start` (handshake, options), :meth:`new_game`,
    :meth:`best_move`; each raises :class:`EngineGone` with one line on a crash or a
    wait that ran out."""

    def __init__(self, spec: EngineSpec, label: str) -> None:
        super().__init__(spec.argv)
        self.spec = spec
        self.label = label  #: "A" or "B"
        self._bestmove: str | None = None
        self._wanted = {name.lower() for name in spec.options}  # the options we set
        self._options: set[str] = set()  # which of them its ``option`` lines declare
        self._refused = ""  # the first ``info string error`` of the handshake, escaped

    def on_line(self, word: str, line: str) -> str:
        if word == "option" and self._wanted and "name" in (parts := line.split()):
            end = parts.index("type") if "type" in parts else len(parts)
            name = " ".join(parts[parts.index("name") + 1:end]).lower()
            if name in self._wanted:  # kept only if asked for: bounded by the command line
                self._options.add(name)
        elif not self._refused and line.startswith("info string error"):
            self._refused = shorten(line[len("info string "):], REFUSED_CHARS)
        if word == "bestmove":
            parts = line.split()
            self._bestmove = parts[1] if len(parts) > 1 else ""
        return ""

    @property
    def timed_out(self) -> bool:
        """Whether the process still runs (a wait ran out) rather than died."""
        return not self._eof and self.wait_exit(0) is None

    def start(self, ready_timeout: float = READY_TIMEOUT) -> None:
        self.spawn()
        self.ask("ugi", "ugiok", UGI_TIMEOUT)
        with self._cond:
            self._refused = ""
        for name, value in self.spec.options.items():
            if name.lower() not in self._options:  # a typo would otherwise go unnoticed
                raise EngineGone(f"option {name}={value}: it has no option {name!r}")
            self.send(f"setoption name {name} value {value}")
        self.ask("isready", "readyok", ready_timeout)
        with self._cond:
            refused = self._refused
        if refused:  # the engine said the value is wrong (ours: out of range ...)
            raise EngineGone(refused)

    def new_game(self) -> None:
        self.send("uginewgame")
        self.ask("isready", "readyok", READY_TIMEOUT)

    def best_move(self, squares: Sequence[str]) -> str:
        """The engine's move (as it wrote it) after the moves ``squares`` from the start."""
        self.send("position startpos" + (" moves " + " ".join(squares) if squares else ""))
        with self._cond:
            self._bestmove = None
        self.ask(self.spec.go, "bestmove", self.spec.move_timeout)
        with self._cond:
            move = self._bestmove
        if move is None:  # ask returned without it: the process died meanwhile
            raise EngineGone(self._exit_text())
        return move

    def stop(self) -> None:
        """``quit``, and kill it if it has not gone within half a second."""
        if self._proc is None:
            return
        try:
            self.send("quit")
        except EngineGone:
            pass
        self.wait_exit(0.5)
        self.close()
