"""Reading an external UGI engine's output: info lines, moves, scores, and the records the
app draws from them (c4tui/ugi/info.py, c4tui/app/bridge/external_run.py). No process here."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.scores import moves_to_end
from c4tui.engine.seam import Band, Limits, Score, SearchState, Source

from c4tui.app.bridge.external_run import ExternalRun
from c4tui.ugi.info import (
    InfoError,
    line_columns,
    parse_info,
    position_command,
    proof_of,
    square_column,
    to_score,
)

FULL = ("info depth 21 seldepth 23 score cp 493 nodes 181797 nps 2128335 hashfull 39 "
        "time 85 pv a2 e3 g1")


def test_a_full_line_has_every_field():
    info = parse_info(FULL)
    assert (info.depth, info.seldepth, info.score_kind, info.score) == (21, 23, "cp", 493)
    assert (info.nodes, info.nps, info.hashfull, info.time_ms) == (181797, 2128335, 39, 85)
    assert info.pv == ("a2", "e3", "g1") and info.bound is None and info.string is None


@pytest.mark.parametrize("text, kind, value", [
    ("score mate 14", "mate", 14), ("score mate -3", "mate", -3), ("score cp -478", "cp", -478),
    ("score cp 0", "cp", 0),
])
def test_scores(text, kind, value):
    info = parse_info(f"info depth 5 {text} pv d1")
    assert (info.score_kind, info.score) == (kind, value)


def test_missing_fields_are_none_and_order_does_not_matter():
    info = parse_info("info nodes 500 depth 3")
    assert (info.depth, info.nodes, info.score, info.seldepth, info.pv) == (3, 500, None,
                                                                            None, ())
    assert parse_info("info") == parse_info("info   ")


def test_uci_extras_are_read_or_skipped():
    info = parse_info("info multipv 2 currmove d1 currmovenumber 3 depth 4 score cp 5 "
                      "upperbound tbhits 0 pv d1")
    assert (info.multipv, info.depth, info.bound, info.pv) == (2, 4, "upperbound", ("d1",))
    assert parse_info("info string error: go before position").string == \
        "error: go before position"


@pytest.mark.parametrize("line, says", [
    ("info depth x", "not a number"), ("info depth", "without a value"),
    ("info score 12", "expected cp or mate"), ("info score mate", "without a value"),
    ("info score cp 1.5", "not a number"), ("info wibble 3", "unknown field"),
    ("bestmove d1", "not an info line"), ("", "not an info line"),
])
def test_junk_is_an_info_error(line, says):
    with pytest.raises(InfoError, match=says):
        parse_info(line)


@pytest.mark.parametrize("moves", ["", "4", "44", "4455", "445566", "44624532265124"])
@pytest.mark.parametrize("k", [1, 2, 5])
def test_mate_k_is_the_apps_win_or_loss_in_k(moves, k):
    pos = Position.from_moves(moves)
    win = to_score(parse_info(f"info depth 3 score mate {k}"), pos)
    loss = to_score(parse_info(f"info depth 3 score mate -{k}"), pos)
    assert win.band is Band.RECOGNIZED and win.value > 0
    assert moves_to_end(win.value, pos.ply) == k
    assert loss.value < 0 and moves_to_end(loss.value, pos.ply) == k
    assert win.short(pos.ply) == f"W{k}r" and loss.short(pos.ply) == f"L{k}r"


def test_full_depth_is_exact_and_cp_is_heuristic():
    pos = Position.from_moves("44624532265124")  # 28 empty squares
    assert to_score(parse_info("info depth 28 score mate 14"), pos).band is Band.EXACT
    assert to_score(parse_info("info depth 27 score mate 14"), pos).band is Band.RECOGNIZED
    assert to_score(parse_info("info depth 28 score cp 0"), pos).band is Band.EXACT
    assert to_score(parse_info("info depth 27 score cp 0"), pos).band is Band.HEURISTIC
    cp = to_score(parse_info("info depth 5 score cp -476"), pos)
    assert (cp.value, cp.band) == (-476, Band.HEURISTIC)
    assert to_score(parse_info("info depth 5 score mate 0"), pos) is None
    assert to_score(parse_info("info depth 5 nodes 3"), pos) is None
    # an absurd distance stays a win, not a draw or a loss
    assert to_score(parse_info("info depth 5 score mate 99"), pos).value == 1


def test_a_proof_is_announced_by_one_exact_string():
    assert proof_of(parse_info("info string proven book")) == "book"
    assert proof_of(parse_info("info string proven solved")) == "solved"
    for other in ("info string proven", "info string proven guess", "info string book",
                  "info string proven book and more", "info string level 3",
                  "info depth 41 score cp 0 pv d1"):
        assert proof_of(parse_info(other)) is None, other


def test_a_proven_line_is_exact_at_any_depth_but_a_proof_of_a_cp_is_not_believed():
    """Our engine's book answer: the depth of its line (9) says nothing, the proof does."""
    pos = Position.from_moves("3")  # c1: a book draw, 41 empty squares
    draw = parse_info("info depth 9 score cp 0 pv d1")
    assert to_score(draw, pos) == Score(0, Band.HEURISTIC)  # a 0 alone is a heuristic 0
    assert to_score(draw, pos, proven=True) == Score(0, Band.EXACT)
    loss = to_score(parse_info("info depth 9 score mate -20 pv d1"), pos, proven=True)
    assert loss.band is Band.EXACT and loss.value < 0
    assert to_score(parse_info("info depth 9 score cp 35"), pos, proven=True) == \
        Score(35, Band.HEURISTIC)


def test_moves_are_landing_squares_checked_against_the_board():
    pos = Position.from_moves("44")  # d1 d2
    assert square_column(pos, "d3") == 3 and square_column(pos, "a1") == 0
    assert square_column(pos, "D3") == 3 and square_column(pos, "c") == 2
    for bad, says in (("d1", "lands on d3"), ("h1", "not a square"), ("0000", "not a square"),
                      ("d3x", "not a square"), ("", "not a square")):
        with pytest.raises(InfoError, match=says):
            square_column(pos, bad)
    full = Position.from_moves("444444")
    for word in ("d6", "d"):  # a square of a full column, its bare letter
        with pytest.raises(InfoError, match="column d is full"):
            square_column(full, word)
    with pytest.raises(InfoError, match="not a square"):
        square_column(full, "d7")  # no row 7 on 7x6
    with pytest.raises(InfoError, match=r"the game is over \(White has won\)"):
        square_column(Position.from_moves("4455667"), "a1")


def test_a_pv_is_cut_at_its_first_bad_move():
    pos = Position.from_moves("44")
    assert line_columns(pos, ["d3", "d4", "e1"]) == ((3, 3, 4), "")
    cols, why = line_columns(pos, ["d3", "d3", "e1"])
    assert cols == (3,) and "lands on d4" in why


def test_the_position_goes_as_startpos_and_squares():
    assert position_command(Position()) == "position startpos"
    assert position_command(Position.from_moves("4453")) == \
        "position startpos moves d1 d2 e1 c1"


# ------------------------------------------------------------------ the run's records


def feed(run: ExternalRun, line: str) -> str:
    return run.feed(parse_info(line))


def test_a_run_turns_info_lines_into_iterations():
    pos = Position.from_moves("44624532265124")
    run = ExternalRun(pos, Limits(nodes=None))
    assert run.snapshot().state is SearchState.SEARCHING and not run.snapshot().iterations
    feed(run, "info depth 1 seldepth 2 score cp 475 nodes 16 nps 1540 hashfull 0 time 10 "
              "pv b5 b6")
    feed(run, "info nodes 30 nps 1600")  # progress only: no iteration
    feed(run, "info depth 2 seldepth 2 score cp -474 nodes 43 nps 461 hashfull 500 time 93 "
              "pv b5 b6")
    snap = run.snapshot()
    assert [it.depth for it in snap.iterations] == [1, 2]
    first, second = snap.iterations
    assert first.seldepth == 2 and first.pv == (1, 1) and first.best_move == 1
    assert (second.nodes, second.total_nodes) == (43 - 16, 43)
    assert second.elapsed == pytest.approx(0.083) and second.tt_fill == 0.5
    assert (snap.depth, snap.nodes, snap.best_move) == (3, 43, 1)
    assert snap.score == Score(-474, Band.HEURISTIC) and snap.result is None


def test_a_new_pv_of_the_same_depth_replaces_the_row_and_bounds_count_as_re_searches():
    run = ExternalRun(Position.from_moves("44"), Limits(nodes=None))
    feed(run, "info depth 1 score cp 3 nodes 10 time 1 pv c1")
    feed(run, "info depth 2 score cp 9 lowerbound nodes 20 time 2 pv d3")
    feed(run, "info depth 2 score cp 5 nodes 30 time 3 pv e1")
    feed(run, "info depth 2 score cp 4 nodes 40 time 4 pv d3")
    feed(run, "info depth 2 multipv 2 score cp -50 nodes 40 time 4 pv a1")  # ignored
    its = run.snapshot().iterations
    assert [it.depth for it in its] == [1, 2]
    assert its[1].score == Score(4, Band.HEURISTIC)
    assert (its[1].best_move, its[1].nodes, its[1].total_nodes) == (3, 30, 40)
    assert its[1].fail_highs == 1 and its[1].fail_lows == 0


def test_a_bad_pv_is_cut_and_said():
    run = ExternalRun(Position.from_moves("44"), Limits(nodes=None))
    why = feed(run, "info depth 1 score cp 3 pv d1")
    assert "lands on d3" in why
    snap = run.snapshot()
    assert snap.iterations[0].pv == () and snap.best_move is None


@pytest.mark.parametrize("limit, stop, exact, reason", [
    (None, True, False, SearchState.STOPPED), (1000, False, False, SearchState.NODE_LIMIT),
    (None, False, False, SearchState.DONE), (None, True, True, SearchState.DONE),
])
def test_how_a_run_ends(limit, stop, exact, reason):
    pos = Position.from_moves("44624532265124")
    run = ExternalRun(pos, Limits(nodes=limit))
    depth = 28 if exact else 5
    feed(run, f"info depth {depth} score mate 14 nodes 900 time 5 pv a2 e3")
    assert run.exhausted is exact
    run.stop_sent = stop
    assert run.finish("a2") == ""
    snap = run.snapshot()
    assert snap.state is reason and not snap.state.active
    res = snap.result
    assert (res.best_move, res.pv, res.nodes, res.depth, res.reason) == (0, (0, 4), 900,
                                                                         depth, reason)
    assert run.feed(parse_info("info depth 9 score cp 1 pv a2")) == ""  # over: ignored
    assert len(run.snapshot().iterations) == 1


def test_a_bad_or_null_bestmove_keeps_the_last_iteration():
    pos = Position.from_moves("44")
    run = ExternalRun(pos, Limits(nodes=None))
    feed(run, "info depth 3 score cp 7 nodes 9 pv e1 e2")
    assert "not a square" in run.finish("zz")
    assert run.result.best_move == 4 and run.result.pv == (4, 4)
    empty = ExternalRun(pos, Limits(nodes=None))
    assert empty.finish("0000") == "" and empty.result is None
    assert empty.snapshot().state is SearchState.DONE and empty.snapshot().best_move is None


# ------------------------------------------------------------------ proven answers

BOOK_DRAW = "info depth 41 seldepth 41 score cp 0 nodes 26 time 0 pv d1 d2 d3"


@pytest.mark.parametrize("lines, proof, source", [
    (["info string proven book", BOOK_DRAW], "book", Source.BOOK),
    (["info string proven solved", BOOK_DRAW], "solved", Source.SEARCH),
    ([BOOK_DRAW], "engine", Source.SEARCH),  # a foreign engine: only its depth says so
])
def test_a_proven_draw_is_final_and_names_its_source(lines, proof, source):
    run = ExternalRun(Position.from_moves("3"), Limits(nodes=None, infinite=True))
    for line in lines:
        assert feed(run, line) == ""
    (it,) = run.snapshot().iterations
    assert (it.score, it.proof, it.source) == (Score(0, Band.EXACT), proof, source)
    assert run.exhausted  # final: the search ends (ExternalSearch sends stop at once)
    run.stop_sent = True
    run.finish("d1")
    assert run.snapshot().state is SearchState.DONE and run.result.source is source


@pytest.mark.parametrize("lines", [
    ["info depth 9 score cp 0 pv d1"],  # a heuristic 0, whatever its depth
    ["info string proven book", "info depth 9 score cp 12 pv d1"],  # no proven value
    ["info string proven book", "info nodes 5", "info depth 9 score cp 0 pv d1"],  # not next
    ["info string proven guess", "info depth 9 score cp 0 pv d1"],  # no source we know
])
def test_a_zero_without_a_proof_is_never_called_proven(lines):
    run = ExternalRun(Position.from_moves("3"), Limits(nodes=None, infinite=True))
    for line in lines:
        feed(run, line)
    it = run.snapshot().iterations[-1]
    assert it.score.band is Band.HEURISTIC and it.proof == "" and it.source is Source.SEARCH
    assert not run.exhausted


def test_a_proof_names_the_multipv_lines_best_first():
    run = ExternalRun(Position.from_moves("3"), Limits(nodes=None, infinite=True))
    feed(run, "info string proven book")
    feed(run, "info depth 41 multipv 1 score cp 0 pv d1")
    feed(run, "info depth 41 multipv 2 score cp 0 pv c2")
    (it,) = run.snapshot().iterations
    assert it.proof == "book" and it.best_move == 3 and run.exhausted
