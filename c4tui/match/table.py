"""What a match prints: a table that refreshes in place on a terminal, a plain line per
game otherwise, JSON lines for scripts, and the final summary.

The table's columns: games played of the total, engine A's wins, draws and losses, its
score (every game), the Elo difference A - B with its 95% interval and what it is over
(the complete pairs only, once there is one: ``Elo over``), the pair counts (pentanomial: pairs
A scored 0, ½, 1, 1½, 2 points in) and, with ``--sprt``, the LLR and its bounds.
"""

from __future__ import annotations

import json
import math
import sys
from typing import TYPE_CHECKING, TextIO

from .game import NORMAL, GameRecord
from .runner import MatchState
from .sprt import Sprt

if TYPE_CHECKING:
    from rich.live import Live
    from rich.table import Table


def _elo_text(state: MatchState) -> str:
    est = state.tally.elo()
    return est.text() if est is not None else "-"


def _llr_text(state: MatchState, sprt: Sprt | None) -> str:
    if sprt is None:
        return ""
    llr = f"{state.llr:+.2f}" if state.llr is not None else "-"
    return f"{llr} ({sprt.lower:+.2f}, {sprt.upper:+.2f})"


def status_line(state: MatchState, sprt: Sprt | None) -> str:
    """``11/100 games  A: 5 W 3 D 3 L  59.1%  Elo +34.9 (95%: ...) over 5 complete pairs
    pairs 0 1 2 1 1``: the score counts every game, the Elo only the complete pairs (so
    the line says what it is over: the two may disagree while a pair is half played)."""
    t = state.tally
    score = f"{100 * t.score:.1f}%" if t.score is not None else "-"
    elo = _elo_text(state)
    over = f" over {t.elo_basis()}" if elo != "-" else ""
    line = (f"{state.played}/{state.total} games  A: {t.wins} W {t.draws} D {t.losses} L  "
            f"{score}  Elo {elo}{over}  pairs {' '.join(map(str, t.pairs))}")
    if sprt is not None:
        line += f"  LLR {_llr_text(state, sprt)}"
    return line


def game_line(record: GameRecord, names: dict[str, str]) -> str:
    """``game 3: A (c4tui) - B (other) 1-0, opening 4453`` and how it ended if not on the
    board."""
    black = "B" if record.white == "A" else "A"
    line = (f"game {record.number}: {record.white} ({names[record.white]}) - {black} "
            f"({names[black]}) {record.result}, opening {record.opening.digits or '-'}")
    if record.termination != NORMAL:
        line += f", {record.termination}: {record.reason}"
    return line


def verdict_text(state: MatchState, sprt: Sprt | None) -> str:
    if sprt is None:
        return ""
    if state.verdict == "H1":
        return f"SPRT: H1 accepted (A is at least {sprt.elo1:g} Elo stronger)"
    if state.verdict == "H0":
        return f"SPRT: H0 accepted (A is at most {sprt.elo0:g} Elo stronger)"
    return "SPRT: no decision (the games ran out first)"


class Output:
    """Prints a match as it goes: ``mode`` is ``"live"`` (a terminal), ``"plain"`` or
    ``"json"``."""

    def __init__(self, mode: str, names: dict[str, str], sprt: Sprt | None,
                 out: TextIO | None = None) -> None:
        self.mode = mode
        self.names = names
        self.sprt = sprt
        self.out = out or sys.stdout
        self._live: Live | None = None

    def begin(self, heading: str) -> None:
        """Print the heading (not in JSON) and, on a terminal, start the live table."""
        if self.mode == "json":
            return
        sprt = self.sprt
        if sprt is not None:
            heading += (f"\nSPRT: H0 Elo {sprt.elo0:g}, H1 Elo {sprt.elo1:g}, alpha "
                        f"{sprt.alpha:g}, beta {sprt.beta:g}: LLR bounds {sprt.lower:+.2f}, "
                        f"{sprt.upper:+.2f}")
        print(heading, file=self.out, flush=True)
        if self.mode == "live":
            from rich.console import Console
            from rich.live import Live

            # only chosen on a terminal: forced, so that it redraws in place (a test
            # that passes a StringIO sees the cursor moves)
            console = Console(file=self.out, force_terminal=True)
            self._live = Live(console=console, auto_refresh=False, transient=False)
            self._live.start()

    def game(self, record: GameRecord, state: MatchState) -> None:
        """One game ended."""
        if self.mode == "json":
            print(json.dumps(_game_json(record, self.names, state)), file=self.out,
                  flush=True)
            if record.termination != NORMAL:
                print(game_line(record, self.names), file=sys.stderr, flush=True)
        elif self._live is not None:
            if record.termination != NORMAL:
                self._live.console.print(game_line(record, self.names), markup=False,
                                         highlight=False, soft_wrap=True)
            self._live.update(self._table(state), refresh=True)
        else:
            print(game_line(record, self.names), file=self.out)
            print("  " + status_line(state, self.sprt), file=self.out, flush=True)

    def _table(self, state: MatchState) -> Table:
        from rich.table import Table

        t = state.tally
        est = t.elo()
        table = Table(box=None, padding=(0, 1))
        cols = ["games", "W", "D", "L", "score", "Elo A-B", "95% interval", "Elo over",
                "pairs"]
        if self.sprt is not None:
            cols.append("LLR")
        for name in cols:
            table.add_column(name, justify="right", no_wrap=True)
        score = f"{100 * t.score:.1f}%" if t.score is not None else "-"
        elo, interval = ("-", "-") if est is None else est.text()[:-1].split(" (95%: ")
        over = "-" if est is None else t.elo_basis().replace("complete ", "")  # the width
        row = [f"{state.played}/{state.total}", str(t.wins), str(t.draws), str(t.losses),
               score, elo, interval, over, " ".join(map(str, t.pairs))]
        if self.sprt is not None:  # its bounds are in the heading
            row.append(f"{state.llr:+.2f}" if state.llr is not None else "-")
        table.add_row(*row)
        return table

    def finish(self, state: MatchState, seconds: float, stopped: str = "") -> None:
        """The final summary (``stopped``: why the match ended early, e.g. interrupted)."""
        if self._live is not None:
            self._live.stop()
        if self.mode == "json":
            print(json.dumps(summary_json(state, self.names, self.sprt, seconds, stopped)),
                  file=self.out, flush=True)
            return
        lines = [f"match over after {seconds:.1f} s" + (f" ({stopped})" if stopped else ""),
                 "  " + status_line(state, self.sprt)]
        if self.sprt is not None:
            lines.append("  " + verdict_text(state, self.sprt))
        print("\n".join(lines), file=self.out, flush=True)


def _game_json(record: GameRecord, names: dict[str, str], state: MatchState) -> dict:
    black = "B" if record.white == "A" else "A"
    return {"event": "game", "game": record.number, "white": record.white,
            "white_name": names[record.white], "black": black, "black_name": names[black],
            "opening": record.opening.digits, "result": record.result,
            "termination": record.termination, "reason": record.reason,
            "moves": record.position().digits(), "played": state.played,
            "llr": state.llr}


def _finite(x: float) -> float | None:
    """JSON has no infinity: an unbounded Elo (a score of 0% or 100%) is null."""
    return None if math.isinf(x) else round(x, 2)


def summary_json(state: MatchState, names: dict[str, str], sprt: Sprt | None,
                 seconds: float, stopped: str = "") -> dict:
    """The final summary as one JSON object (``"event": "summary"``)."""
    t = state.tally
    est = t.elo()
    out: dict = {"event": "summary", "engines": names, "games": state.played,
                 "wins": t.wins, "draws": t.draws, "losses": t.losses, "score": t.score,
                 "pentanomial": t.pairs, "seconds": round(seconds, 3),
                 "elo": None if est is None else {"diff": _finite(est.elo),
                                                  "lo": _finite(est.lo), "hi": _finite(est.hi)}}
    if sprt is not None:
        out["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                       "beta": sprt.beta, "llr": state.llr, "lower": sprt.lower,
                       "upper": sprt.upper, "verdict": state.verdict}
    if stopped:
        out["stopped"] = stopped
    return out
