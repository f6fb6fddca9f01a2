"""The ``go`` command as the engine's :class:`~c4tui.engine.seam.Limits`, with the time a
search may take on the clock."""

from __future__ import annotations

from c4tui.bounded import clip, small_int
from c4tui.engine.board.geometry import SIZE
from c4tui.engine.board.position import WHITE, Position, shown
from c4tui.engine.seam import MAX_NODE_LIMIT, Limits

#: Kept back from a clock or a ``movetime``: reading, answering and the runner's own work.
SAFETY_MS = 30
#: The least a timed search is given, even on an almost empty clock.
MIN_BUDGET_MS = 5
#: The largest time ``go`` takes, a year in milliseconds: no game lasts that long, and a
#: bound says so instead of taking 10^30 ms as a time.
MAX_GO_MS = 365 * 24 * 3600 * 1000


def clock_budget(ms: dict[str, int], pos: Position | None) -> float | None:
    """Seconds the search of ``pos`` may take under ``go``'s times (milliseconds by
    argument name), or None for no time limit.

    ``movetime`` is used whole, less a safety margin. On a clock the side to move spends
    its time over the moves it may still have to make (at most 21 in a game of Connect
    Four, and usually fewer: 12 is assumed at most), plus most of its increment, and never
    more than half of what is left.
    """
    movetime = ms.get("movetime")
    if movetime is not None:
        spend = movetime - min(SAFETY_MS, movetime // 4)
        return max(spend, MIN_BUDGET_MS) / 1000
    if pos is None:
        return None
    white = pos.to_move == WHITE
    mine = ms.get("p1time" if white else "p2time")
    if mine is None:
        return None
    inc = ms.get("p1inc" if white else "p2inc") or 0
    own_moves_left = (SIZE - pos.ply + 1) // 2
    budget = mine / max(2, min(own_moves_left, 12)) + 0.75 * inc
    budget = min(budget, mine / 2 + inc / 2, mine - SAFETY_MS)
    return max(budget, MIN_BUDGET_MS) / 1000


_INT_ARGS = ("depth", "nodes", "movetime", "p1time", "p2time", "p1inc", "p2inc")


def parse_go(words: list[str], pos: Position | None = None) -> Limits:
    """The :class:`Limits` of ``go`` from its words after ``go``, for a search of ``pos``
    (whose side to move decides which clock counts; None: no clock budget); ValueError
    saying what is wrong.

    ``depth`` is 1 to the board's squares (42 on 7x6), ``nodes`` at least 1; times are
    milliseconds and may be negative on a clock that has run out (the budget is then the
    minimum): they become ``Limits.time``, the seconds this search may take. Without
    ``nodes`` there is no node limit.
    """
    values: dict[str, int] = {}
    infinite = False
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word == "infinite":
            infinite = True
            i += 1
            continue
        if word not in _INT_ARGS:
            raise ValueError(f"go: unknown limit {shown(words[i])} (expected depth, nodes, "
                             f"movetime, p1time, p2time, p1inc, p2inc or infinite)")
        if word in values:
            raise ValueError(f"go: {word} given twice")
        if i + 1 >= len(words):
            raise ValueError(f"go: {word} needs a number")
        text = words[i + 1]
        n = small_int(text, signed=True)
        if n is None:
            raise ValueError(f"go: {word} {shown(text)}: not a whole number")
        if word == "depth" and not 1 <= n <= SIZE:
            raise ValueError(f"go: depth {clip(text)}: expected 1 to {SIZE} plies")
        if word == "nodes" and not 1 <= n <= MAX_NODE_LIMIT:
            raise ValueError(f"go: nodes {clip(text)}: expected 1 to {MAX_NODE_LIMIT:,}")
        if word in ("movetime", "p1inc", "p2inc") and n < 0:
            raise ValueError(f"go: {word} {clip(text)}: expected milliseconds, 0 or more")
        if word not in ("depth", "nodes") and abs(n) > MAX_GO_MS:  # times only
            raise ValueError(f"go: {word} {clip(text)}: expected at most {MAX_GO_MS:,} ms")
        values[word] = n
        i += 2
    time = None if infinite else clock_budget(values, pos)
    return Limits(nodes=values.get("nodes"), depth=values.get("depth"), time=time,
                  infinite=infinite)


def format_go(limits: Limits) -> str:
    """The ``go`` command that asks another engine for ``limits``, as :func:`parse_go`
    reads it: ``go nodes 20000``, ``go depth 8 movetime 300``, ``go infinite``, or a bare
    ``go`` for :class:`Limits` without a bound (the protocol's "until the search ends by
    itself", docs/protocol.md).

    ``time`` is sent as ``movetime`` in whole milliseconds: the receiving engine keeps its
    own safety margin from it (:func:`clock_budget`), so ``parse_go(format_go(l))`` is
    ``l`` except that its ``time`` is that budget (and none under ``infinite``).
    """
    words = ["go"]
    if limits.nodes is not None:
        words += ["nodes", str(limits.nodes)]
    if limits.depth is not None:
        words += ["depth", str(limits.depth)]
    if limits.time is not None:
        words += ["movetime", str(round(limits.time * 1000))]
    if limits.infinite:
        words.append("infinite")
    return " ".join(words)
