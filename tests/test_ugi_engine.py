"""The UGI client's API (c4tui/ugi/engine.py): start, configure, play, analysis, stop, quit,
against real engine processes: ``c4tui engine``, tests/ugi_random.py and the hostile
engine tests/ugi_hostile.py. Every wait is bounded by the client's own timeouts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Limits, Score
from hostile_util import assert_nothing_left, hostile

from c4tui.ugi.engine import Engine, EngineGone, Timeouts
from c4tui.ugi.info import proof_of, square_column, to_score

OWN = (sys.executable, "-m", "c4tui.ugi")
RANDOM = (sys.executable, str(Path(__file__).with_name("ugi_random.py")))


@pytest.fixture
def own():
    engine = Engine(OWN)
    engine.start()
    yield engine
    engine.quit()


def test_start_shakes_hands_once_and_play_answers_a_legal_move_with_its_last_info(own):
    pos = Position.from_moves("4453")
    assert own.status().ready and own.name.startswith("c4tui")
    result = own.play(pos, Limits(nodes=20_000))
    assert result.move is not None
    square_column(pos, result.move)  # legal there (InfoError otherwise)
    assert result.info is not None and result.info.depth and result.info.pv[0] == result.move
    assert result.ponder is None  # ours never ponders


def test_analysis_yields_info_records_until_stopped_then_holds_the_answer(own):
    pos = Position.from_moves("44")
    depths = []
    with own.analysis(pos, Limits(nodes=None, infinite=True)) as search:
        for info in search:
            depths.append(info.depth)
            own.stop()  # an infinite search answers only to stop
    assert depths and search.result is not None and search.result.move is not None
    square_column(pos, search.result.move)


def test_the_books_draw_reads_as_proven_and_the_announcement_is_no_note(own):
    """Our engine's books' draw (after c1) under ``go infinite``: the client reads the
    ``info string proven book`` before the score line, and so the ``cp 0`` as a proven
    draw (alone it is a heuristic 0); the announcement is protocol, not a note to show."""
    pos = Position.from_moves("3")
    with own.analysis(pos, Limits(nodes=None, infinite=True)) as search:
        records = []
        for info in search:
            records.append(info)
            if info.score is not None:
                own.stop()
    announced, line = records[-2:]
    assert proof_of(announced) == "book" and proof_of(line) is None
    assert to_score(line, pos, proven=True) == Score(0, Band.EXACT)
    assert (line.depth, line.pv[0]) == (41, "d1")  # the whole game: full depth says it too
    assert to_score(line, pos) == Score(0, Band.EXACT)
    assert search.result is not None and search.result.move == "d1"
    assert "proven" not in own.status().message


def test_leaving_an_analysis_early_stops_it_and_the_engine_answers_the_next_go(own):
    with own.analysis(Position(), Limits(nodes=None, infinite=True)) as search:
        for _info in search:
            break
    assert search.result is None
    # the next search gets its own answer, not the stopped one's
    pos = Position.from_moves("4453")
    result = own.play(pos, Limits(nodes=5_000))
    assert result.move is not None
    square_column(pos, result.move)


def test_configure_sets_declared_options_and_refuses_a_typo():
    """The random engine's ``Seed`` makes its moves repeatable: set, it is used."""
    seeded = [Engine(RANDOM, options={"Seed": seed}) for seed in ("7", "7", "8")]
    try:
        games = []
        for e in seeded:
            e.start()
            games.append([e.play(Position.from_moves("4" * n), Limits(nodes=None)).move
                          for n in range(6)])
        assert games[0] == games[1] != games[2], games
    finally:
        for e in seeded:
            e.quit()
    typo = Engine(RANDOM, options={"Sede": "7"})
    try:
        with pytest.raises(EngineGone, match=r"^option Sede=7: it has no option 'Sede'$"):
            typo.start()
    finally:
        typo.quit()


def test_a_refused_value_is_one_escaped_bounded_line(tmp_path):
    report = tmp_path / "r.txt"
    engine = Engine(hostile(report, "refuse").split(), options={"Seed": "3"})
    try:
        with pytest.raises(EngineGone) as caught:
            engine.start()
    finally:
        engine.quit()
        assert_nothing_left([report])
    why = str(caught.value)
    assert why.startswith("error \\x1b[2J\\x1b]0;pwned") and len(why) <= 200, why[:80]


def test_an_engine_that_exits_is_gone_with_how_it_ended(tmp_path):
    report = tmp_path / "r.txt"
    engine = Engine(hostile(report, "exit,fork").split())
    try:
        engine.start()
        assert engine.play(Position(), Limits(nodes=None)).move is not None
        with pytest.raises(EngineGone, match=r"^exited \(code 0\)|closed its output"):
            engine.play(Position.from_moves("4"), Limits(nodes=None))
    finally:
        engine.quit()
        assert_nothing_left([report])  # its child too, though it outlived the engine


def test_a_silent_engine_runs_out_of_the_named_timeout():
    engine = Engine(("cat",), timeouts=Timeouts(ugi=0.5))  # echoes: never says ugiok
    try:
        with pytest.raises(EngineGone, match=r"^no ugiok within 0.5 s after ugi "
                                             r"\(it printed 'ugi'\)$"):
            engine.start()
        assert engine.timed_out  # still running: a wait ran out, it did not die
    finally:
        engine.quit()
