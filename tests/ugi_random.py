"""A UGI engine that plays a random legal move (the weakest opponent, for the tests).

Independent of c4tui: it keeps the board with :class:`ugi_match.Referee`. Option ``Seed``
makes its games repeatable.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ugi_match import Referee  # noqa: E402


def main() -> None:
    rng = random.Random(0)
    board = Referee()
    out = sys.stdout
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ugi":
            out.write("id name random\nid author c4tui tests\n"
                      "option name Seed type spin default 0 min 0 max 1000000\nugiok\n")
        elif cmd == "isready":
            out.write("readyok\n")
        elif cmd == "setoption" and len(words) >= 5 and words[2].lower() == "seed":
            rng = random.Random(int(words[4]))
        elif cmd == "position":
            board = Referee()
            if "moves" in words:
                for sq in words[words.index("moves") + 1:]:
                    board.play(sq)
        elif cmd == "go":
            legal = board.legal_squares()
            out.write(f"bestmove {rng.choice(legal) if legal else '0000'}\n")
        elif cmd == "query":
            what = words[1] if len(words) > 1 else ""
            if what == "gameover":
                out.write(f"response {str(board.result != 'none').lower()}\n")
            elif what == "p1turn":
                out.write(f"response {str(board.plies % 2 == 0).lower()}\n")
            elif what == "result":
                out.write(f"response {board.result}\n")
        elif cmd == "quit":
            break
        out.flush()


if __name__ == "__main__":
    main()
