"""The UGI protocol: commands in, answers out (see docs/protocol.md for a whole session).

UGI (the Universal Game Interface of the Cute Games match runner) is UCI generalised to
any game, plus ``query``. :class:`UgiEngine` keeps the protocol's state (options, position,
the running search) and answers one command line at a time; :func:`run` reads the input
in its own thread, so ``isready``, ``query`` and ``stop`` are answered while a search runs
(the search itself runs in a :class:`c4tui.ugi.jobs.SearchJob` thread).

Bad input never raises: it is answered with one ``info string error: ...`` line and the
previous state is kept. A ``go`` that cannot search (no position yet, the game is over,
a malformed limit) also answers ``bestmove 0000``, UCI's null move, so that a runner
waiting for a move does not wait for ever.
"""

from __future__ import annotations

import os
import queue
import random
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO, NoReturn, TextIO

from c4tui import __version__
from c4tui.bounded import LineTooLong, bounded_lines, clip, small_int
from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import (
    BLACK,
    WHITE,
    IllegalMoveError,
    Position,
    shown,
)
from c4tui.engine.levels import PERFECT_LEVEL, level
from c4tui.engine.seam import DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS

from .fen import parse_fen
from .jobs import AnalysisJob, ExactJob, Resources, SearchJob
from .level_job import LevelJob
from .limits import parse_go

ENGINE_NAME = f"c4tui {__version__}"
ENGINE_AUTHOR = "the c4tui developers"
NULL_MOVE = "0000"
#: The most ``quit`` waits for a search and the analysis worker to end.
QUIT_SECONDS = 0.4


@dataclass(frozen=True)
class Option:
    """One ``option`` line: a ``spin`` (whole number in [lo, hi]) or a ``check`` (bool)."""

    name: str
    kind: str  # "spin" or "check"
    default: int | bool
    lo: int = 0
    hi: int = 0
    unit: str = ""  #: said after the range in an error (``MB``)

    def line(self) -> str:
        if self.kind == "check":
            return f"option name {self.name} type check default {str(self.default).lower()}"
        return (f"option name {self.name} type spin default {self.default} "
                f"min {self.lo} max {self.hi}")

    def parse(self, text: str) -> int | bool:
        """The value of ``setoption ... value text``; ValueError saying what is wrong."""
        # The command line's one form, "<option> <value>: <reason>" (c4tui/cli/errors.py).
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name} {shown(text)}: not true or false")
            return text.lower() == "true"
        n = small_int(text.strip(), signed=True)
        if n is None:
            raise ValueError(f"option {self.name} {shown(text)}: not a whole number")
        if not self.lo <= n <= self.hi:
            raise ValueError(f"option {self.name} {clip(text.strip())}: out of range "
                             f"({self.lo:,} to {self.hi:,}{self.unit and ' ' + self.unit})")
        return n


#: The options, in the order ``ugi`` lists them.
OPTIONS = (
    # MB for each search's table: the solver's and the analysis search's tables 1-2.
    Option("Hash", "spin", DEFAULT_HASH_MB, 1, MAX_HASH_MB, "MB"),
    # Threads of the exact solver, up to MAX_THREADS (MILTON's search uses one).
    Option("Threads", "spin", 1, 1, MAX_THREADS),
    # true: perfect play from the exact solver and the books; false: the analysis search
    # within the go limits.
    Option("Exact", "check", False),
    # The opening books, in both searches.
    Option("OwnBook", "check", True),
    # A strength level (c4tui.engine.levels; 10: perfect play); 0: off, full strength
    # under the go limits.
    Option("Level", "spin", 0, 0, PERFECT_LEVEL),
    # The analysis search's lines: the best K root moves, one info line each (multipv i).
    Option("MultiPV", "spin", 1, 1, WIDTH),
)
_BY_NAME = {o.name.lower(): o for o in OPTIONS}


class UgiEngine:
    """The protocol's state and command handlers. ``emit`` writes one line of output
    (from any thread; it must be thread-safe)."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit = emit
        self.options: dict[str, int | bool] = {o.name: o.default for o in OPTIONS}
        self.position: Position | None = None
        self.job: SearchJob | None = None
        self.resources = Resources()
        #: Set as soon as ``quit`` (or the end of input) is read, before it is handled: a
        #: long ``isready`` gives up waiting then.
        self.quitting = threading.Event()
        self.game_seed = random.getrandbits(64)  #: a level's moves vary from game to game
        self._apply_options()

    # ---------------------------------------------------------------- dispatch
    def handle(self, line: str) -> bool:
        """Answer one command line; False once the engine should exit (``quit``)."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        handler = getattr(self, f"cmd_{cmd}", None) if cmd.isidentifier() else None
        if handler is None:
            self.error(f"unknown command {shown(cmd)}")
            return True
        try:
            return handler(args) is not False
        except Exception as exc:  # a bug in a handler: one line, and the engine goes on
            self.error(f"{cmd}: {type(exc).__name__}: {exc}")
            return True

    def error(self, message: str) -> None:
        self.emit(f"info string error: {message}")

    @property
    def searching(self) -> bool:
        return self.job is not None and self.job.running

    # ---------------------------------------------------------------- commands
    def cmd_ugi(self, args: list[str]) -> None:
        self.emit(f"id name {ENGINE_NAME}")
        self.emit(f"id author {ENGINE_AUTHOR}")
        for opt in OPTIONS:
            self.emit(opt.line())
        self.emit("ugiok")

    def cmd_isready(self, args: list[str]) -> None:
        if not self.searching:
            # isready does the slow work (UGI: none before it): the kernels at the first,
            # the solver's table after an option changes; during a search it is done and
            # the answer is immediate.
            try:
                if not self.resources.prepare_until(self.quitting):
                    return  # quit: no readyok, the engine is going
            except (MemoryError, OSError, ValueError) as exc:  # e.g. Hash too large here
                self.error(f"isready: {type(exc).__name__}: {exc}")
        self.emit("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        low = [a.lower() for a in args]
        if not low or low[0] != "name":
            self.error("setoption: expected 'setoption name <name> value <value>'")
            return
        if "value" in low:
            at = low.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        opt = _BY_NAME.get(name.lower())
        if opt is None:
            known = ", ".join(o.name for o in OPTIONS)
            self.error(f"setoption: unknown option {shown(name)} (options: {known})")
            return
        if self.searching:
            self.error(f"setoption {opt.name}: not during a search (send stop first)")
            return
        try:
            self.options[opt.name] = opt.parse(value)
        except ValueError as exc:
            self.error(f"setoption: {exc}")
            return
        self._apply_options()

    def cmd_uginewgame(self, args: list[str]) -> None:
        if self.job is not None and self.searching:
            self.job.stop()
        self.resources.new_game()
        self.game_seed = random.getrandbits(64)

    def cmd_position(self, args: list[str]) -> None:
        try:
            self.position = parse_position(args)
        except ValueError as exc:  # FenError and IllegalMoveError are ValueErrors
            self.error(f"position: {exc}")

    def cmd_go(self, args: list[str]) -> None:
        if self.searching:
            self.error("go: a search is running (send stop first)")
            return
        pos = self.position
        try:
            limits = parse_go(args, pos)
            if pos is None:
                raise ValueError("go: no position yet (send position startpos or position "
                                 "fen first)")
            if pos.is_over:
                raise ValueError("go: the game is over, there is no move to search")
        except ValueError as exc:
            self.error(str(exc))
            self.emit(f"bestmove {NULL_MOVE}")
            return
        if self.options["Level"]:
            self.job = LevelJob(pos, limits, self.resources, self.emit,
                                level=level(int(self.options["Level"])), seed=self.game_seed)
        else:
            kind = ExactJob if self.options["Exact"] else AnalysisJob
            self.job = kind(pos, limits, self.resources, self.emit)
        self.job.start()

    def cmd_stop(self, args: list[str]) -> None:
        if self.job is not None:
            self.job.stop()  # bestmove is out when this returns (if it was not already)

    def cmd_query(self, args: list[str]) -> None:
        if len(args) != 1 or args[0] not in ("gameover", "p1turn", "result"):
            self.error("query: expected gameover, p1turn or result")
            return
        pos = self.position
        if pos is None:
            self.error(f"query {args[0]}: no position yet")
            return
        if args[0] == "gameover":
            answer = str(pos.is_over).lower()
        elif args[0] == "p1turn":
            answer = str(pos.to_move == WHITE).lower()
        elif pos.winner == WHITE:
            answer = "p1win"
        elif pos.winner == BLACK:
            answer = "p2win"
        else:
            answer = "draw" if pos.is_draw else "none"
        self.emit(f"response {answer}")

    def cmd_quit(self, args: list[str]) -> bool:
        self.shutdown()
        return False

    # ---------------------------------------------------------------- helpers
    def shutdown(self) -> None:
        """Stop any search (its bestmove goes out) and release the engine, within
        :data:`QUIT_SECONDS`: a search still allocating its table is left to the exit."""
        if self.job is not None:
            self.job.stop(grace=QUIT_SECONDS / 2)
        self.resources.close(timeout=QUIT_SECONDS / 2)

    def _apply_options(self) -> None:
        self.resources.configure(hash_mb=int(self.options["Hash"]),
                                 threads=int(self.options["Threads"]),
                                 own_book=bool(self.options["OwnBook"]),
                                 exact=bool(self.options["Exact"] or self.options["Level"]),
                                 multipv=int(self.options["MultiPV"]))


def parse_position(args: list[str]) -> Position:
    """The position of ``position startpos|fen F [moves ...]``; ValueError saying why not."""
    if not args:
        raise ValueError("expected startpos or fen")
    low = [a.lower() for a in args]
    at = low.index("moves") if "moves" in low else len(args)
    if low[0] == "startpos":
        if at != 1:
            raise ValueError(f"unexpected {args[1]!r} after startpos")
        pos = Position()
    elif low[0] == "fen":
        pos = parse_fen(" ".join(args[1:at]))
    else:
        raise ValueError(f"expected startpos or fen, not {args[0]!r}")
    for i, word in enumerate(args[at + 1:]):
        try:
            pos.play(pos.parse_move(word))
        except IllegalMoveError as exc:
            raise ValueError(f"move {i + 1} {exc}") from None
    return pos


class LineWriter:
    """Thread-safe line output; remembers a closed pipe instead of raising."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()
        self.closed = False

    def __call__(self, line: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (OSError, ValueError):  # the runner went away
                self.closed = True


class _Commands(queue.Queue):
    """The input lines, in order; ``quitting`` is set as soon as ``quit`` or the end of
    input (None) comes in, while the protocol thread may still be busy with a command."""

    def __init__(self, quitting: threading.Event) -> None:
        super().__init__()
        self.quitting = quitting

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        if item is None or item.split()[:1] == ["quit"]:
            self.quitting.set()
        super().put(item, block, timeout)


def run(stdin: BinaryIO | None = None, stdout: TextIO | None = None,
        level: int = 0) -> int:
    """Speak UGI on ``stdin``/``stdout`` until ``quit`` or the end of input; exit code 0.

    A reader thread turns input into lines (undecodable bytes are replaced, never fatal;
    a line longer than :data:`~c4tui.bounded.MAX_LINE_CHARS` is an error line, and input
    without a line end in 16 MiB ends like the end of input);
    this thread answers them in order. A running search answers in its own thread.
    ``level``: the ``Level`` option's value to begin with (``c4tui engine --level``).
    """
    source = stdin if stdin is not None else sys.stdin.buffer
    writer = LineWriter(stdout if stdout is not None else sys.stdout)
    engine = UgiEngine(writer)
    if level:
        engine.options["Level"] = level
        engine._apply_options()
    lines: queue.Queue[str | None] = _Commands(engine.quitting)

    def read() -> None:
        try:
            for raw in bounded_lines(source):
                if isinstance(raw, LineTooLong):  # said at once (and never echoed)
                    writer(f"info string error: {raw}")
                    continue
                lines.put(raw.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass
        lines.put(None)  # end of input

    threading.Thread(target=read, name="ugi-input", daemon=True).start()
    while True:
        line = lines.get()
        if line is None or writer.closed:
            engine.shutdown()
            return 0
        if not engine.handle(line):
            return 0


def main(level: int = 0) -> NoReturn:
    """Run the engine on this process's standard input and output, then end the process.

    The process ends with ``os._exit``: the input thread may still be blocked reading
    stdin, which Python cannot interrupt, and a normal interpreter shutdown would then
    abort on the stdin lock.
    """
    code = run(level=level)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
