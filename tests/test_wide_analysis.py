"""The analysis search on boards past 64 bits (issue 28): its 128-bit kernels checked
against the brute force (tests/brute_force.py) in a subprocess of the size
(tests/wide_analysis_probe.py), as tests/test_sizes.py checks the solver.

At full depth the search is exact: every column's score (multi-PV over all of them) and
the best move of each driver and variant equal the brute force's; the recognizer's exact
endgame values (one free column, or two at least four apart) too, distance included; and
MILTON's threat fill gives what a plain Python fill on ``int`` bitboards gives. Compiling
the analysis kernels for a size takes seconds, so the default run checks 8x8;
``C4TUI_TEST_WIDE=10x6,16x7,...`` (or ``all``) checks more, as it does for the solver in
tests/test_sizes.py.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from brute_force import _is_four, column_scores, solver
from c4tui.engine.analysis.eval import WIN
from c4tui.engine.board.geometry import parse_size

PROBE = Path(__file__).with_name("wide_analysis_probe.py")
DEFAULT_SIZES = ("8x8",)
#: Two-word sizes: Little Golem's 9x9 and 10x10, Steininger's 10x6, 13 columns (more than
#: 3 bits for a column), the extremes (16x7 and 4x31: 128 bits; 25x4: the widest), 7x14.
ALL_SIZES = ("8x8", "9x9", "10x10", "10x6", "6x10", "9x7", "13x4", "16x7", "4x31", "25x4",
             "7x14")


def _sizes() -> list[str]:
    env = os.environ.get("C4TUI_TEST_WIDE", "").strip()
    if env == "all":
        return list(ALL_SIZES)
    return [s.strip() for s in env.split(",") if s.strip()] or list(DEFAULT_SIZES)


def probe(size: str, requests: list[dict]) -> list[dict]:
    """The probe's answers to ``requests`` on ``size``."""
    out = subprocess.run([sys.executable, str(PROBE)],
                         input="".join(json.dumps(r) + "\n" for r in requests),
                         env=dict(os.environ, C4TUI_SIZE=size), capture_output=True,
                         text=True, timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == len(requests)
    return rows


# ---------------------------------------------------------------- bitboards in Python

def _bitboards(w: int, h: int, moves: list[int]) -> tuple[int, int]:
    """(discs of the side to move, all discs): the engine's layout, as Python ints."""
    stones = [0, 0]
    heights = [0] * w
    for i, c in enumerate(moves):
        stones[i % 2] |= 1 << (c * (h + 1) + heights[c])
        heights[c] += 1
    return stones[len(moves) % 2], stones[0] | stones[1]


def _fill_ref(w: int, h: int, cur: int, mask: int) -> tuple[int, int]:
    """MILTON's threat fill (engine/analysis/eval.py, ``threat_fill``) on Python ints."""
    h1 = h + 1
    cols = [((1 << h) - 1) << (c * h1) for c in range(w)]
    board = sum(cols)
    bottom = sum(1 << (c * h1) for c in range(w))

    def wins(p: int) -> int:
        r = (p << 1) & (p << 2) & (p << 3)
        for s in (h1, h1 - 1, h1 + 1):
            t = (p << s) & (p << 2 * s)
            r |= t & (p << 3 * s)
            r |= t & (p >> s)
            t = (p >> s) & (p >> 2 * s)
            r |= t & (p << s)
            r |= t & (p >> 3 * s)
        return r & (board ^ mask)

    me, you = wins(cur), wins(cur ^ mask)
    live = sum(col for col in cols if (me | you) & col)
    m, side, step = mask, 1, 0
    while True:
        step += 1
        play = (m + bottom) & board & live
        if not play:
            return 0, 0
        if play & me:
            return side, step
        sq = play & you
        if not sq:
            under_me, under_you = play & (me >> 1), play & (you >> 1)
            sq = play & ~(under_me | under_you)
            if not sq:
                sq = under_me & ~under_you
                if sq:
                    odd = next((sq & col for col in cols
                                if sq & col and bin(col & ~m).count("1") & 1), 0)
                    sq = odd or sq
                else:
                    sq = play
        sq &= -sq
        m |= sq
        me &= ~m
        you &= ~m
        me, you = you, me
        side = -side


# ---------------------------------------------------------------- recognizable endgames

def _endgame(rng: random.Random, w: int, h: int, free: tuple[int, ...]) -> list[int] | None:
    """A random game in which only the columns ``free`` still have room (the recognizer's
    condition; the kernel also wants no four to make at once, which its exact solve does
    not need); None if it did not work out."""
    cols: list[list[int]] = [[] for _ in range(w)]
    moves: list[int] = []

    def wins_at(c: int, who: int) -> bool:
        return _wins_at(cols, c, who, w, h)

    share = rng.choice((0.04, 0.15, 0.3))  # of the moves played in the free columns
    while any(len(cols[c]) < h for c in range(w) if c not in free):
        who = len(moves) % 2
        legal = [c for c in range(w) if len(cols[c]) < h and not wins_at(c, who)]
        others = [c for c in legal if c not in free]
        pick = [c for c in legal if c in free] if (rng.random() < share or not others) \
            else others
        if not pick:
            return None
        c = rng.choice(pick)
        cols[c].append(who)
        moves.append(c)
    if any(len(cols[c]) >= h for c in free):
        return None
    return moves


def _endgames(w: int, h: int, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    sets = [(c,) for c in (0, w // 2, w - 1)] + [
        (a, b) for a in range(w) for b in range(a + 4, w)]
    out: list[list[int]] = []
    tries = 0
    while len(out) < n and tries < 100 * n:
        tries += 1
        free = rng.choice(sets)
        moves = _endgame(rng, w, h, free)
        # two columns: at most 14 free squares, so that the brute force stays quick
        if moves is not None and (len(free) == 1 or w * h - len(moves) <= 14):
            out.append(moves)
    return out


def _internal(score: int, ply: int, area: int) -> int:
    """The analysis value (``±(WIN - n_end)``, 0) of a brute-force score at ``ply``: the
    winning disc is the one played on ``n`` discs, of the winner's parity, with
    ``(area + 1 - n) // 2 == |score|``."""
    if score == 0:
        return 0
    winner_parity = ply % 2 if score > 0 else 1 - ply % 2
    n = next(n for n in range(ply, area) if n % 2 == winner_parity
             and (area + 1 - n) // 2 == abs(score))
    return (WIN - (n + 1)) * (1 if score > 0 else -1)


def _wins_at(cols: list[list[int]], c: int, who: int, w: int, h: int) -> bool:
    """Whether a disc of ``who`` in column ``c`` (not full) would make a four."""
    cols[c].append(who)
    won = _is_four(cols, c, w, h)
    cols[c].pop()
    return won


def _positions(w: int, h: int, empties: int, n: int, seed: int) -> list[list[int]]:
    """``n`` random positions with ``empties`` squares left where the side to move has no
    four to make at once (that needs no search): random games that avoid making a four
    (plain random games on a large board rarely get that far)."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        cols: list[list[int]] = [[] for _ in range(w)]
        moves: list[int] = []
        while True:
            who = len(moves) % 2
            open_cols = [c for c in range(w) if len(cols[c]) < h]
            legal = [c for c in open_cols if not _wins_at(cols, c, who, w, h)]
            if len(moves) == w * h - empties:
                if len(legal) == len(open_cols):
                    out.append(moves)
                break
            if not legal:
                break
            c = rng.choice(legal)
            cols[c].append(who)
            moves.append(c)
    return out


# ---------------------------------------------------------------- the test

@pytest.mark.parametrize("size", _sizes())
def test_wide_analysis_against_brute_force(size: str) -> None:
    w, h = parse_size(size)
    assert (h + 1) * w > 64, "a two-word size"
    area = w * h
    score = solver(w, h)
    searches = (_positions(w, h, 10, 8, seed=w * 100 + h)
                + _positions(w, h, 12, 4, seed=w * 1000 + h))
    rng = random.Random(w * 10 + h)
    fills = [m for k in (6, 12, 20, area // 2, area - 14, area - 8)
             for m in _positions(w, h, area - k, 30, seed=rng.randrange(1 << 30))]
    endgames = _endgames(w, h, 12, seed=w + 100 * h)
    assert len(endgames) >= 4, "too few recognizable endgames"
    requests = ([{"kind": "search", "moves": m} for m in searches]
                + [{"kind": "fill", "moves": m} for m in fills]
                + [{"kind": "eg", "moves": m} for m in endgames])
    rows = probe(size, requests)
    assert all(row["size"] == [w, h] for row in rows)

    for moves, row in zip(searches, rows[:len(searches)], strict=True):
        want = score(moves)
        cols = column_scores(w, h, moves, score)
        best = max(s for s in cols if s is not None)
        for variant in ("multipv", "mtdf", "no-recognition", "killers"):
            r = row[variant]
            where = f"{size} {variant} {moves}"
            assert r["reason"] == "done" and r["band"] == "exact", where
            assert r["depth"] == area - len(moves), where
            assert r["score"] == want, where
            assert cols[r["best"]] == best, where
            assert r["pv"] and r["pv"][0] == r["best"], where
        lines = row["multipv"]["lines"]
        assert sorted(m for m, _, _ in lines) == [c for c in range(w) if cols[c] is not None]
        for m, s, band in lines:
            assert band == "exact" and s == cols[m], f"{size} {moves} column {m}"

    fill_rows = rows[len(searches):len(searches) + len(fills)]
    decided = 0
    for moves, row in zip(fills, fill_rows, strict=True):
        cur, mask = _bitboards(w, h, moves)
        want_fill = _fill_ref(w, h, cur, mask)
        assert (row["outcome"], row["plies"]) == want_fill, f"{size} fill {moves}"
        decided += want_fill[0] != 0
    assert decided >= 3, "the fills decided too few games to mean much"

    eg_rows = rows[len(searches) + len(fills):]
    for moves, row in zip(endgames, eg_rows, strict=True):
        assert row["recognizable"], f"{size} {moves}"
        assert row["value"] == _internal(score(moves), len(moves), area), f"{size} eg {moves}"


def test_cli_analyzes_a_two_word_board() -> None:
    """``c4tui analyze --size 8x8`` from the empty board: iterations, a best move."""
    out = subprocess.run([sys.executable, "-m", "c4tui", "analyze", "--size", "8x8", "",
                          "--nodes", "20k", "--json"], capture_output=True, text=True,
                         timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    its = [r for r in rows if r["type"] == "iteration"]
    assert len(its) >= 5 and rows[-1]["type"] == "result"
    assert rows[-1]["reason"] == "node_limit" and rows[-1]["best_move"] in range(8)


def test_level_moves_go_to_the_centre_on_a_wide_board() -> None:
    """Bug: on 9 columns and more the middle columns have the same square values, and a
    tie in the move ordering went to the rightmost of them: from the empty 9x9 board the
    search's move was column 6 (g on 10x10) wherever its values were level. Now the
    centre, e (column 5)."""
    out = subprocess.run([sys.executable, "-m", "c4tui", "analyze", "--size", "9x9", "",
                          "--depth", "2", "--json"], capture_output=True, text=True,
                         timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["score"] == 0 and result["best_move"] == 5, result
