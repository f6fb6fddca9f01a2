"""The search log: one row per iteration of the iterative deepening, the last one live."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.position import Position
from c4tui.engine.seam import Band, IterationReport, Snapshot

from ..text import human_count, human_time, pv_text, window_text

# (title, width) of the columns; the PV takes what is left. Narrow: the first set.
COLUMNS = (("d", 5), ("window", 11), ("re", 4), ("score", 5), ("nodes", 6), ("n/s", 6),
           ("hit", 4), ("fill", 4), ("time", 6))
NARROW = ("d", "score", "nodes", "time")
MIN_PV = 12


@dataclass(frozen=True)
class Row:
    cells: dict[str, str]
    pv: str
    live: bool = False


def _rows(pos: Position, snap: Snapshot) -> list[Row]:
    """One row per iteration; a run of proven iterations with the same score and move
    (a position the book or a quick proof settles) is one row ``5-36``."""
    groups: list[list[IterationReport]] = []
    for it in snap.iterations:
        prev = groups[-1][-1] if groups else None
        if prev is not None and it.band is not Band.HEURISTIC and prev.band == it.band \
                and prev.score == it.score and prev.best_move == it.best_move:
            groups[-1].append(it)
        else:
            groups.append([it])
    rows = []
    for g in groups:
        first, it = g[0], g[-1]
        depth = str(it.depth) if len(g) == 1 else f"{first.depth}-{it.depth}"
        if it.from_book:
            depth = "book"
        nodes = sum(x.nodes for x in g)
        secs = sum(x.elapsed for x in g)
        rows.append(Row({
            "d": depth, "window": window_text(it.alpha, it.beta),
            "re": f"{sum(x.fail_highs for x in g)}/{sum(x.fail_lows for x in g)}",
            "score": it.pov.log(pos.ply), "nodes": human_count(nodes),
            "n/s": human_count(int(nodes / secs) if secs > 0 else 0),
            "hit": f"{it.hit_rate * 100:.0f}%", "fill": f"{it.tt_fill * 100:.0f}%",
            "time": human_time(secs)}, pv_text(pos, it.pv)))
    if snap.state.active:
        done = snap.iterations[-1].total_nodes if snap.iterations else 0
        label = "preparing" if snap.preparing else snap.state.label
        rows.append(Row({"d": str(snap.depth), "window": label,
                         "nodes": human_count(max(0, snap.nodes - done))}, "", live=True))
    return rows


class SearchLog(Widget):
    """The app sets ``position`` and ``snapshot`` (None: no search of this position)."""

    DEFAULT_CSS = """
    SearchLog {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    position: reactive[Position] = reactive(Position)
    snapshot: reactive[Snapshot | None] = reactive(None)

    @property
    def row_count(self) -> int:
        snap = self.snapshot
        return 0 if snap is None else len(_rows(self.position, snap))

    def render(self) -> Text:
        width = max(10, self.size.width)
        cols = [c for c in COLUMNS if c[0] in NARROW] \
            if sum(w + 1 for _, w in COLUMNS) + MIN_PV > width else list(COLUMNS)
        out = Text(no_wrap=True, overflow="crop")
        for name, w in cols:
            out.append(f"{name:>{w}} ", style="bold")
        out.append("pv", style="bold")
        snap = self.snapshot
        if snap is None:
            return out
        rows = _rows(self.position, snap)
        room = max(1, self.size.height - 1)
        for i, row in enumerate(rows[-room:]):
            style = "bold yellow" if row.live else ("" if i % 2 else "on #1e1e28")
            out.append("\n")
            line = "".join(f"{row.cells.get(name, ''):>{w}} " for name, w in cols)
            line += row.pv
            out.append(f"{line:<{width}}", style=style)
        return out
