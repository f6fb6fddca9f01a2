"""Multi-PV analysis (``SearchOptions.multipv``, ``analyze --multipv``, UGI ``MultiPV``).

The single-PV search must not change (its nodes and lines are pinned below, measured
before multi-PV existed); with K lines, the full-depth scores of every line must be the
columns' exact scores of tests/data (BitBully's, an independent solver).
"""

from __future__ import annotations

import json
import re

import pytest
from c4tui.book import load_default
from c4tui.engine.analysis.controller import SearchController, run_search
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Limits, Score, SearchOptions
from c4tui.engine.solver.solver import Solver
from testdata import load_positions, sample
from typer.testing import CliRunner
from ugi_client import start_engine

from c4tui.cli import app

POSITIONS = load_positions()
#: deep enough for the search to reach full depth in a moment
DEEP = sample([r for r in POSITIONS if len(r[0]) >= 26], 8, 27)
NO_BOOK = SearchOptions(use_book=False)


@pytest.mark.parametrize("moves, opts, limits, nodes, pv", [
    # measured on the commit before multi-PV (1295e80): the same nodes and line
    ("4453", NO_BOOK, Limits(nodes=None, depth=12), 82429,
     (3, 6, 2, 6, 1, 6, 6, 4, 4, 4, 2, 3)),
    ("44444", SearchOptions(use_book=False, mtdf=True), Limits(nodes=None, depth=12), 143425,
     (4, 4, 1, 5, 1, 0, 1, 1, 0, 4, 4, 4)),
    ("", NO_BOOK, Limits(nodes=None, depth=12), 167226,
     (3, 3, 3, 3, 4, 2, 2, 5, 1, 2, 4, 1, 0, 2)),
])
def test_single_pv_search_is_unchanged(moves, opts, limits, nodes, pv):
    res = run_search(Position.from_moves(moves), limits, opts)
    assert (res.nodes, res.pv) == (nodes, pv)
    assert len(res.lines) == 1
    line = res.lines[0]
    assert (line.move, line.score, line.pv) == (res.best_move, res.score, res.pv)


@pytest.mark.parametrize("moves, score, columns", DEEP)
def test_three_lines_at_full_depth_are_the_exact_column_scores(moves, score, columns):
    pos = Position.from_moves(moves)
    res = run_search(pos, Limits(nodes=None), SearchOptions(use_book=False, multipv=3))
    legal = [c for c, s in enumerate(columns) if s is not None]
    assert len(res.lines) == min(3, len(legal))
    assert len({line.move for line in res.lines}) == len(res.lines)
    for line in res.lines:
        assert line.score.band is Band.EXACT
        assert line.score.value == columns[line.move], (moves, line)
        assert line.pv[0] == line.move
    got = [line.score.value for line in res.lines]
    assert got == sorted(got, reverse=True)
    assert got == sorted((s for s in columns if s is not None), reverse=True)[:len(got)]
    assert (res.best_move, res.score) == (res.lines[0].move, Score(score, Band.EXACT))


def test_more_lines_than_moves_gives_every_move_even_those_lost_at_once():
    # Black to move must block a4: the other six moves lose at once (the kernel never
    # searches them); White wins with a4 on top of any of them
    pos = Position.from_moves("12121")
    res = run_search(pos, Limits(nodes=None, depth=4), SearchOptions(use_book=False,
                                                                     multipv=7))
    assert sorted(line.move for line in res.lines) == list(range(7))
    assert res.lines[0].move == 0
    for line in res.lines[1:]:
        assert line.score.proven and line.score.value < 0
        assert line.pv == (line.move, 0)
    assert all(len(it.lines) == 7 for it in SearchController_iterations(pos))


def SearchController_iterations(pos: Position):  # noqa: N802 - reads as what it gives
    ctl = SearchController()
    ctl.start(pos, Limits(nodes=None, depth=3), SearchOptions(use_book=False, multipv=7))
    ctl.wait()
    snap = ctl.snapshot()
    ctl.close()
    assert snap.lines == snap.iterations[-1].lines
    return snap.iterations


def test_a_root_in_the_books_answers_its_lines_from_them():
    books = load_default()
    pos = Position.from_moves("4453")
    res = run_search(pos, Limits(), SearchOptions(multipv=4), book=books)
    assert res.source == "book" and len(res.lines) == 4
    exact = Solver(hash_mb=16, book=books).analyze(pos).scores
    got = [line.score.value for line in res.lines]
    assert got == sorted(got, reverse=True)
    assert got == sorted((s for s in exact if s is not None), reverse=True)[:4]
    assert all(line.score.value == exact[line.move] for line in res.lines)


def test_multipv_out_of_range_is_refused():
    with pytest.raises(ValueError, match="multipv 8: expected 1 to 7 lines"):
        SearchOptions(multipv=8)


# ------------------------------------------------------------------ the command line

runner = CliRunner()


def test_analyze_json_gives_the_result_its_lines():
    r = runner.invoke(app, ["analyze", "4453", "--nodes", "30000", "--json", "--no-book",
                            "--multipv", "3"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.output.splitlines() if x.startswith("{")]
    result = rows[-1]
    assert result["type"] == "result" and len(result["lines"]) == 3
    assert result["lines"][0]["move"] == result["best_move"]
    assert result["lines"][0]["pv"] == result["pv"]
    assert {"move", "score", "band", "pv"} == set(result["lines"][0])
    assert all(len(row["lines"]) == 3 for row in rows[:-1])


def test_analyze_without_multipv_prints_no_lines():
    r = runner.invoke(app, ["analyze", "4453", "--nodes", "3000", "--json", "--no-book"])
    assert r.exit_code == 0 and '"lines"' not in r.output


def test_analyze_text_lists_the_lines_and_a_bad_count_is_one_line():
    r = runner.invoke(app, ["analyze", "4453", "--nodes", "20000", "--no-book",
                            "--multipv", "2"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^1\. \d .*\n2\. \d ", r.output, re.M)
    bad = runner.invoke(app, ["analyze", "4453", "--multipv", "0"])
    assert bad.exit_code == 2
    assert "--multipv 0: out of range (1 to 7 lines)" in bad.output
    assert "Traceback" not in bad.output


# ------------------------------------------------------------------ the UGI

MULTI = re.compile(r"^info depth (\d+) seldepth \d+ multipv (\d) score (cp -?\d+|mate -?\d+) "
                   r"nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-g][1-6])+$")


def test_ugi_multipv_prints_one_info_line_per_line():
    eng = start_engine({"MultiPV": "3", "OwnBook": "false"})
    try:
        eng.send("position startpos moves d1 d2 e1 c1")
        move, infos = eng.bestmove("go depth 5")
        got = [MULTI.match(x) for x in infos]
        assert all(got), infos
        assert [(int(m[1]), int(m[2])) for m in got if m] == [
            (d, i) for d in range(1, 6) for i in (1, 2, 3)]
        assert infos[-3].split(" pv ")[1].split()[0] == move
        for bad in ("0", "8"):
            eng.send(f"setoption name MultiPV value {bad}")
            lines = eng.ask("isready", "readyok")
            assert lines[:-1] == [f"info string error: setoption: option MultiPV {bad}: "
                                  "out of range (1 to 7)"]
    finally:
        eng.__exit__()
