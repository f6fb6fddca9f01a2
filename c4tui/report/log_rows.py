"""The iteration table's rows, for the app's search log and ``c4tui analyze`` alike (no
Textual): one row per iteration of the iterative deepening, proven repeats folded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.seam import IterationReport, Snapshot, Source

from .text import human_count, human_time, pv_text, window_text

# (title, width) of the columns; the PV takes what is left. Narrow: the first set.
COLUMNS = (("d", 5), ("window", 11), ("re", 4), ("score", 5), ("nodes", 6), ("n/s", 6),
           ("hit", 4), ("fill", 4), ("time", 6))
NARROW = ("d", "score", "nodes", "time")
MIN_PV = 12
#: The cells of a row that no search made (the books, an exact recognition): it has no
#: window, speed, table or time, so they read "-" rather than numbers made of nothing.
NOT_SEARCHED = ("window", "re", "n/s", "hit", "fill", "time")


@dataclass(frozen=True)
class Row:
    """The cells of one row by column title, the PV, and whether it is the live one."""

    cells: dict[str, str]
    pv: str
    live: bool = False


def iteration_rows(pos: Position, snap: Snapshot,
                   pv_format: Callable[[Position, tuple[int, ...]], str] = pv_text
                   ) -> list[Row]:
    """One row per iteration; a run of proven iterations with the same score and move
    (a position the book or a quick proof settles) is one row ``5-36``."""
    groups: list[list[IterationReport]] = []
    for it in snap.iterations:
        prev = groups[-1][-1] if groups else None
        if prev is not None and it.score.proven and prev.score == it.score \
                and prev.best_move == it.best_move:
            groups[-1].append(it)
        else:
            groups.append([it])
    rows = []
    for g in groups:
        first, it = g[0], g[-1]
        depth = str(it.depth) if len(g) == 1 else f"{first.depth}-{it.depth}"
        if it.source is not Source.SEARCH:
            depth = str(it.source)  # no iterations: the books or an exact recognition
        nodes = sum(x.nodes for x in g)
        secs = sum(x.elapsed for x in g)
        rows.append(Row({
            "d": depth, "window": window_text(it.alpha, it.beta),
            "re": f"{sum(x.fail_highs for x in g)}/{sum(x.fail_lows for x in g)}",
            "score": it.score.log(pos.ply), "nodes": human_count(nodes),
            "n/s": human_count(int(nodes / secs) if secs > 0 else 0),
            "hit": f"{it.hit_rate * 100:.0f}%", "fill": f"{it.tt_fill * 100:.0f}%",
            "time": human_time(secs)}, pv_format(pos, it.pv)))
        if it.source is not Source.SEARCH:
            rows[-1].cells.update(dict.fromkeys(NOT_SEARCHED, "-"))
    if snap.state.active:
        done = snap.iterations[-1].total_nodes if snap.iterations else 0
        label = "preparing" if snap.preparing else snap.state.label
        rows.append(Row({"d": str(snap.depth), "window": label,
                         "nodes": human_count(max(0, snap.nodes - done))}, "", live=True))
    return rows
