"""A hostile UGI engine for the tests: it plays a random legal move (as ugi_random.py) and
misbehaves as its arguments say.

    python ugi_hostile.py REPORT MODE[,MODE...]

REPORT is a file it appends lines to (the tests read them): ``pid P`` at the start,
``child C`` for the process it starts, ``nice ENGINE CHILD`` (its own niceness and its
child's) at each ``go``. MODEs:

* ``fork``: start ``sleep 97`` in its own process group at the start, and on ``quit``
  exit without ending it (the issue's reproduction: the child outlives the engine);
* ``flood``: every answer comes with a flood: an ``id name`` of 60,000 characters with
  terminal escapes, thousands of ``option`` lines of new names, and before each
  ``readyok`` and ``bestmove`` lines of new first words and 60 KB ``info string`` lines
  full of escape sequences (their sum, over a match, is hundreds of MB);
* ``refuse``: an ``info string error`` of 60 KB with escapes before ``readyok`` (what an
  engine says of an option value it refuses);
* ``junk``: its moves in the second game are junk with escapes (an illegal move);
* ``stderr``: escape sequences on standard error, and it exits (code 3) at its first
  ``go`` of the third game (a crash whose reason quotes its last line there);
* ``exit``: it exits after its first ``bestmove`` (with ``fork``, its child lives on and
  holds its output open).

Independent of c4tui: it keeps the board with :class:`ugi_match.Referee`.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ugi_match import Referee  # noqa: E402

#: Escape sequences that would act on a terminal: clear the screen, set the title, colour,
#: a right-to-left override, a NUL, a bell, a cursor move.
ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x1b[31m\u202eevil\x00\x07\x1b[10A"
#: One flood line's length (just under the client's 64 KB line).
BIG = 60_000


def _nice(pid: int) -> int:
    """A process's niceness from /proc (field 19 of its stat line)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


class Hostile:
    def __init__(self, report: Path, modes: set[str]) -> None:
        self.report = report
        self.modes = modes
        self.out = sys.stdout
        self.rng = random.Random(0)
        self.board = Referee()
        self.games = 0
        self.serial = 0  # makes every flooded word new
        self.child: subprocess.Popen[bytes] | None = None
        self.say(f"pid {os.getpid()} pgid {os.getpgrp()}")
        if "fork" in modes:
            self.child = subprocess.Popen(["sleep", "97"], stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
            self.say(f"child {self.child.pid}")

    def say(self, line: str) -> None:
        with self.report.open("a", encoding="utf-8") as f:
            f.write(line + "\n")

    def new(self) -> str:
        self.serial += 1
        return f"w{self.serial:08d}"

    def flood(self, lines: int) -> None:
        """``lines`` lines of new first words and 60 KB info strings with escapes."""
        if "flood" not in self.modes:
            return
        pad = (ESCAPES * (BIG // len(ESCAPES)))[:BIG]
        for _ in range(lines):
            word = self.new()
            self.out.write(word + "x" * (BIG - len(word)) + "\n")  # a new first word
            self.out.write(f"info string {word} {pad}\n")
        self.out.flush()

    def ugi(self) -> None:
        name = "hostile" if "flood" not in self.modes else \
            "hostile " + (ESCAPES * (BIG // len(ESCAPES)))
        self.out.write(f"id name {name}\nid author c4tui tests\n")
        if "flood" in self.modes:
            for _ in range(5000):  # new option names, each long
                self.out.write(f"option name {self.new()}{'o' * 1000} type check "
                               "default false\n")
        self.out.write("option name Seed type spin default 0 min 0 max 1000000\nugiok\n")

    def go(self) -> None:
        nice = _nice(self.child.pid) if self.child is not None else ""
        self.say(f"nice {_nice(os.getpid())} {nice}".rstrip())
        if "stderr" in self.modes:
            print(f"hostile: {ESCAPES} " + "e" * BIG, file=sys.stderr, flush=True)
            if self.games >= 3:
                sys.exit(3)
        self.flood(150)
        if "junk" in self.modes and self.games == 2:
            self.out.write(f"bestmove {ESCAPES}\n")
            return
        legal = self.board.legal_squares()
        self.out.write(f"bestmove {self.rng.choice(legal) if legal else '0000'}\n")
        if "exit" in self.modes:
            self.out.flush()
            sys.exit(0)

    def run(self) -> None:
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            cmd = words[0]
            if cmd == "ugi":
                self.ugi()
            elif cmd == "isready":
                self.flood(60)
                if "refuse" in self.modes:
                    self.out.write(f"info string error {ESCAPES} " + "r" * BIG + "\n")
                self.out.write("readyok\n")
            elif cmd == "uginewgame":
                self.games += 1
            elif cmd == "position":
                self.board = Referee()
                if "moves" in words:
                    for sq in words[words.index("moves") + 1:]:
                        self.board.play(sq)
            elif cmd == "go":
                self.go()
            elif cmd == "quit":
                break  # the child, if any, is left running
            self.out.flush()


def main() -> None:
    Hostile(Path(sys.argv[1]), set(sys.argv[2].split(","))).run()


if __name__ == "__main__":
    main()
