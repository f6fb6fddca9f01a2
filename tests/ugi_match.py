"""A small UGI match runner for the tests, separate from c4tui's code.

No independent UGI match runner can be installed here (Cute Games, the runner UGI comes
from, is C++ built from source and is in neither PyPI, Debian nor npm), so this module plays
the runner's part the way Cute Games does for a generic game: before every move it sends
``isready`` and ``position startpos moves ...`` to the engine to move and asks it
``query gameover``; then ``go``; at the end it asks both engines ``query gameover`` and
``query result`` and takes the result only if they agree. It also referees with its own
rules (:class:`Referee`, written here, not c4tui's): every ``bestmove`` must be the square
a disc lands on, and the engines' result must be the board's.

Run by hand: ``python tests/ugi_match.py --games 2 --exact`` (two ``c4tui engine``
processes with ``Exact true``), or ``--random`` for c4tui against a random mover.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ugi_client import EngineError, UgiProcess, start_engine  # noqa: E402

COLS, ROWS = 7, 6
RANDOM_CMD = (sys.executable, str(Path(__file__).with_name("ugi_random.py")))


class Referee:
    """Connect Four rules, written independently of c4tui: a grid and four-in-a-row."""

    def __init__(self) -> None:
        self.grid = [[0] * ROWS for _ in range(COLS)]  # 0 empty, 1 first player, 2 second
        self.heights = [0] * COLS
        self.plies = 0
        self.winner = 0

    def legal_squares(self) -> list[str]:
        if self.winner or self.plies == COLS * ROWS:
            return []
        return [f"{'abcdefg'[c]}{self.heights[c] + 1}" for c in range(COLS)
                if self.heights[c] < ROWS]

    def play(self, square: str) -> None:
        if square not in self.legal_squares():
            raise ValueError(f"illegal move {square!r} (legal: {self.legal_squares()})")
        c, r = "abcdefg".index(square[0]), int(square[1:]) - 1
        player = 1 + self.plies % 2
        self.grid[c][r] = player
        self.heights[c] += 1
        self.plies += 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cc, rr = c + sign * dc, r + sign * dr
                while 0 <= cc < COLS and 0 <= rr < ROWS and self.grid[cc][rr] == player:
                    run += 1
                    cc, rr = cc + sign * dc, rr + sign * dr
            if run >= 4:
                self.winner = player

    @property
    def result(self) -> str:
        if self.winner:
            return f"p{self.winner}win"
        return "draw" if self.plies == COLS * ROWS else "none"


@dataclass
class Game:
    moves: list[str] = field(default_factory=list)
    result: str = "none"
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)

    @property
    def plies(self) -> int:
        return len(self.moves)


def play_game(p1: UgiProcess, p2: UgiProcess, go1: str, go2: str,
              move_timeout: float = 120.0) -> Game:
    """One game from the start position, ``p1`` moving first (see the module docstring)."""
    ref = Referee()
    game = Game()
    t0 = time.perf_counter()
    for eng in (p1, p2):
        eng.ask("isready", "readyok")
        eng.send("uginewgame")
    while True:
        us, go = (p1, go1) if ref.plies % 2 == 0 else (p2, go2)
        us.ask("isready", "readyok")
        us.send("position startpos" + (" moves " + " ".join(game.moves) if game.moves else ""))
        if us.query("gameover") == "true":
            break
        move, infos = us.bestmove(go, timeout=move_timeout)
        game.log.append(f"{us.name}: {move} {infos[-1] if infos else ''}")
        ref.play(move)  # raises on an illegal move
        game.moves.append(move)
        if ref.plies > COLS * ROWS:  # pragma: no cover - the referee would have refused
            raise EngineError("the game went past a full board")
    results = []
    for eng in (p1, p2):
        eng.ask("isready", "readyok")
        eng.send("position startpos moves " + " ".join(game.moves))
        results.append((eng.query("gameover"), eng.query("result")))
    if results[0] != results[1]:
        raise EngineError(f"the engines disagree about the end: {results}")
    if results[0] != ("true", ref.result):
        raise EngineError(f"engines say {results[0]}, the referee says {ref.result}")
    game.result = ref.result
    game.seconds = time.perf_counter() - t0
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--exact", action="store_true", help="c4tui Exact true against itself")
    mode.add_argument("--random", action="store_true",
                      help="c4tui (go nodes 20000) against a random mover, colours alternating")
    args = ap.parse_args()
    for g in range(args.games):
        if args.exact:
            a = start_engine({"Exact": "true"}, name="c4tui-1")
            b = start_engine({"Exact": "true"}, name="c4tui-2")
            go_a = go_b = "go movetime 10000"
        else:
            a = start_engine({"Exact": "false"}, name="c4tui")
            b = start_engine({"Seed": str(g)}, cmd=RANDOM_CMD, name="random")
            go_a, go_b = "go nodes 20000", "go nodes 1"
            if g % 2:
                a, b, go_a, go_b = b, a, go_b, go_a
        game = play_game(a, b, go_a, go_b)
        print(f"game {g + 1}: {a.name} - {b.name}: {game.result} on ply {game.plies} "
              f"({game.seconds:.2f} s): {' '.join(game.moves)}")
        for eng in (a, b):
            eng.close()


if __name__ == "__main__":
    main()
