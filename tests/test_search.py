"""The analysis search: exact at full depth, and a controller that pauses, steps and stops
without changing the result (docs/analysis.md)."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from pathlib import Path

import pytest
from c4tui.engine.analysis.controller import SearchController, run_search
from c4tui.engine.analysis.search import classify
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, IterationReport, Limits, Score, SearchOptions, SearchState
from waiting import wait_until

DATA = Path(__file__).parent / "data" / "positions.txt"


@pytest.fixture(scope="module", autouse=True)
def _kernels_loaded():
    """Compile or load the kernels first, so the control tests' timeouts measure the
    controller, not a cold numba cache (CI starts cold)."""
    from c4tui.engine.analysis.controller import _warmup

    _warmup()



def _rows(min_ply: int, max_ply: int, every: int = 1):
    rows = []
    for line in DATA.read_text().splitlines():
        p = line.split()
        if min_ply <= len(p[0]) <= max_ply:
            rows.append((p[0], int(p[1]), [None if x == "x" else int(x) for x in p[2:]]))
    return rows[::every]


EXACT = Limits(nodes=None)  # to the end: full depth
NO_BOOK = SearchOptions(use_book=False)
VARIANTS = {
    "default": {},
    "alphabeta": {"pvs": False},
    "full-window": {"aspiration": False},
    "mtdf": {"mtdf": True},
    "no-quiescence": {"quiescence": False},
    "extensions": {"extensions": True},
    "killers": {"killers": True},
    "no-recognition": {"recognition": False},
}


def _check_exact(ctl: SearchController, moves: str, score: int, cols) -> None:
    pos = Position.from_moves(moves)
    best = max(s for s in cols if s is not None)
    res = ctl.result
    assert res is not None and res.reason == "done", (moves, res)
    its = ctl.snapshot().iterations
    empties = 42 - pos.ply
    assert its and its[-1].depth == empties, (moves, its[-1] if its else None)
    for it in its:
        if it.score.band == "exact":
            assert it.depth == empties  # exact only at full depth
            assert it.score.value == score, (moves, it)
            assert cols[it.best_move] == best, (moves, it)
    assert res.score == Score(score, Band.EXACT) and cols[res.best_move] == best
    assert res.pv and res.pv[0] == res.best_move


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_full_depth_matches_exact_scores(variant):
    """Every full-depth iteration gives the solvers' score and an exactly best move."""
    every = 2 if variant == "default" else 7
    rows = _rows(24, 38, every)
    opts = dataclasses.replace(NO_BOOK, **VARIANTS[variant])
    ctl = SearchController()
    for moves, score, cols in rows:
        ctl.start(Position.from_moves(moves), EXACT, opts)
        assert ctl.wait(60)
        _check_exact(ctl, moves, score, cols)
    ctl.close()


def test_full_depth_some_longer_positions():
    ctl = SearchController()
    for moves, score, cols in _rows(18, 21, 9):
        ctl.start(Position.from_moves(moves), EXACT, NO_BOOK)
        assert ctl.wait(120)
        _check_exact(ctl, moves, score, cols)
    ctl.close()


def test_reports_are_consistent():
    pos = Position.from_moves("4453")
    res = run_search(pos, Limits(nodes=60_000), NO_BOOK)
    assert res.reason == "node_limit" and res.nodes == 60_000
    ctl = SearchController()
    ctl.start(pos, Limits(nodes=60_000), NO_BOOK)
    ctl.wait()
    its = ctl.snapshot().iterations
    assert [it.depth for it in its] == list(range(1, len(its) + 1))
    assert sum(it.nodes for it in its) <= 60_000
    for it in its:
        assert isinstance(it, IterationReport)
        assert it.score.band == "heuristic"
        assert 0 <= it.best_move < 7 and it.pv[0] == it.best_move
        assert it.tt_hits <= it.tt_probes and 0 <= it.hit_rate <= 1 and 0 <= it.tt_fill <= 1
        assert it.alpha < it.beta
    # the node limit returns the best move of the last completed iteration
    assert ctl.result.best_move == its[-1].best_move == res.best_move
    assert ctl.result.depth == its[-1].depth
    with pytest.raises(dataclasses.FrozenInstanceError):
        its[0].depth = 3  # type: ignore[misc]  # frozen: the test shows it is


def test_immediate_win_and_game_over():
    pos = Position.from_moves("121212")
    res = run_search(pos, Limits(), NO_BOOK)
    assert res.best_move == 0 and res.score == Score(18, Band.EXACT)
    with pytest.raises(ValueError):
        SearchController().start(Position.from_moves("1212121"), Limits())


@pytest.mark.parametrize("kind, bad", [(Limits, {"depth": 0}), (Limits, {"nodes": 0}),
                                       (SearchOptions, {"hash_mb": 0}), (Limits, {"depth": 43}),
                                       (Limits, {"time": -1.0}), (Limits, {"nodes": 1.5})])
def test_absurd_limits_and_options_rejected(kind, bad):
    with pytest.raises(ValueError):
        kind(**bad)


def test_limits_bound_the_search_and_options_only_choose_techniques():
    """A depth ends the search there (DONE); a time ends it early (STOPPED)."""
    res = run_search(Position.from_moves("4453"), Limits(nodes=None, depth=3), NO_BOOK)
    assert res.reason == "done" and res.depth == 3
    res = run_search(Position(), Limits(nodes=None, time=0.2), NO_BOOK)
    assert res.reason == "stopped" and res.depth < 42
    assert not {"max_depth", "node_limit"} & {f.name for f in dataclasses.fields(SearchOptions)}


def test_classify_bands():
    assert classify(0, True) == Score(0, Band.EXACT)
    assert classify(0, False) == Score(0, Band.HEURISTIC)
    assert classify(470, False) == Score(470, Band.HEURISTIC)
    # a real win with the 40th disc: White's 20th disc -> 22 - 20
    assert classify(1000 - 39, True) == Score(2, Band.EXACT)
    assert classify(-(1000 - 39), False) == Score(-2, Band.RECOGNIZED)
    assert classify(700 - 39, False) == Score(2, Band.RECOGNIZED)


# ------------------------------------------------------------------ controller

MID = Position.from_moves("44455335")  # 8 discs: a search of a few hundred thousand nodes
MID_LIMITS = Limits(nodes=250_000)


def _reference():
    ctl = SearchController()
    ctl.start(MID, MID_LIMITS, NO_BOOK)
    assert ctl.wait(60)
    snap = ctl.snapshot()
    ctl.close()
    return snap


def _same(a, b) -> None:
    assert a.result == b.result
    strip = [(i.depth, i.alpha, i.beta, i.fail_highs, i.fail_lows, i.value, i.best_move,
              i.nodes, i.tt_probes, i.tt_hits, i.pv) for i in a.iterations]
    assert strip == [(i.depth, i.alpha, i.beta, i.fail_highs, i.fail_lows, i.value,
                      i.best_move, i.nodes, i.tt_probes, i.tt_hits, i.pv) for i in b.iterations]


def test_pause_resume_gives_the_same_search():
    ref = _reference()
    ctl = SearchController()
    ctl.start(MID, MID_LIMITS, NO_BOOK)
    # paused five times, after 1, 11, 21, 31 and 41 thousand nodes of the 250,000: each
    # pause lands while the search runs, on any machine
    for at in range(1_000, 50_000, 10_000):
        wait_until(lambda at=at: ctl.snapshot().nodes >= at, 60, f"{at} nodes")
        ctl.pause()
        assert ctl.wait_paused(5)
        snap = ctl.snapshot()
        assert snap.state == "paused"
        n = snap.nodes
        time.sleep(0.03)  # a window for nodes that must not come: not a wait for an event
        assert ctl.snapshot().nodes == n  # really paused
        path = ctl.path()  # (empty when the pause came between two iterations)
        for i, e in enumerate(path):
            assert e.ply == i
            assert e.alpha < e.beta or i == len(path) - 1
        ctl.resume()
    assert ctl.wait(60)
    _same(ctl.snapshot(), ref)
    ctl.close()


def test_step_nodes_gives_the_same_search():
    ref = _reference()
    ctl = SearchController()
    ctl.start(MID, MID_LIMITS, NO_BOOK)
    ctl.pause()
    assert ctl.wait_paused(5)
    steps = 0
    while ctl.snapshot().state == "paused" and steps < 200:
        before = ctl.snapshot().nodes
        ctl.step_nodes(7919)
        assert ctl.wait_paused(10)
        snap = ctl.snapshot()
        if snap.state == "paused":
            assert snap.nodes == before + 7919
            path = ctl.path()
            assert path and path[-1].move == -1  # paused on entering a node
            assert all(0 <= e.move < 7 and 0 <= e.index < 7 for e in path[:-1])
        steps += 1
    assert ctl.wait(30)
    _same(ctl.snapshot(), ref)
    ctl.close()


def test_step_iteration_gives_the_same_search():
    ref = _reference()
    ctl = SearchController()
    ctl.start(MID, MID_LIMITS, NO_BOOK)
    ctl.pause()
    assert ctl.wait_paused(5)
    seen = len(ctl.snapshot().iterations)
    for _ in range(100):
        ctl.step_iteration()
        assert ctl.wait_paused(30)
        snap = ctl.snapshot()
        if snap.state != "paused":
            break
        assert len(snap.iterations) in (seen, seen + 1)
        assert len(snap.iterations) >= 1
        seen = len(snap.iterations)
    assert ctl.wait(30)
    _same(ctl.snapshot(), ref)
    ctl.close()


def _paused_unlimited_search() -> SearchController:
    """A search of "44" without node limit, paused after it has started."""
    ctl = SearchController()
    ctl.start(Position.from_moves("44"), EXACT, NO_BOOK)
    ctl.pause()
    assert ctl.wait_paused(30)
    return ctl


def test_set_node_limit_while_running():
    # Set the limit relative to the nodes already searched: a fixed 30,000 raced with the
    # running search, which on a loaded CI machine was past it before the limit arrived.
    ctl = _paused_unlimited_search()
    limit = ctl.snapshot().nodes + 30_000
    ctl.set_node_limit(limit)
    ctl.resume()
    assert ctl.wait(30)
    res = ctl.result
    assert res.reason == "node_limit" and res.nodes <= limit + 1
    ctl.close()


def test_node_limit_lowered_below_the_nodes_searched_stops_at_once():
    ctl = _paused_unlimited_search()
    searched = ctl.snapshot().nodes
    ctl.set_node_limit(max(1, searched // 2))  # takes effect when the search goes on
    ctl.resume()
    assert ctl.wait(30)
    assert ctl.result.reason == "node_limit" and ctl.result.nodes <= searched + 1
    ctl.close()


def test_stop_and_close_are_prompt():
    ctl = SearchController()
    ctl.start(Position(), EXACT, NO_BOOK)
    wait_until(lambda: ctl.snapshot().nodes, 300, "the kernel to search")
    t = time.perf_counter()
    ctl.stop()
    assert ctl.wait(2)
    assert time.perf_counter() - t < 1.0
    assert ctl.snapshot().state == "stopped"
    assert ctl.result is not None and 0 <= ctl.result.best_move < 7
    # close while paused
    ctl.start(Position(), EXACT, NO_BOOK)
    wait_until(lambda: ctl.snapshot().nodes, 30, "the kernel to search")
    ctl.pause()
    assert ctl.wait_paused(5)
    t = time.perf_counter()
    ctl.close()
    assert time.perf_counter() - t < 1.0
    # a paused search uses no CPU: its thread (the one that calls the listener) sleeps
    threads: set[int] = set()
    ctl.listen(lambda: threads.add(threading.get_ident()))
    ctl.start(Position(), EXACT, NO_BOOK)
    wait_until(lambda: threads, 30, "an iteration")
    ctl.pause()
    assert ctl.wait_paused(5)
    (search_thread,) = threads
    clock = time.pthread_getcpuclockid(search_thread)  # the search thread's CPU clock
    c0 = time.clock_gettime(clock)
    time.sleep(0.3)  # a window for CPU time that must not be spent: not a wait for an event
    assert time.clock_gettime(clock) - c0 < 0.03
    ctl.close()


def test_random_control_sequences_never_deadlock():
    """200 random sequences of control calls: no exception, no hang, a sane end state."""
    rng = random.Random(20061)
    positions = [Position.from_moves(m) for m in ("", "4", "4453", "44455335",
                                                  "33445252", "4444441")]
    ctl = SearchController()
    errors: list[BaseException] = []

    def one(seq: int) -> None:
        for _ in range(rng.randint(3, 12)):
            op = rng.choice(["start", "pause", "resume", "stop", "step_iteration",
                             "step_nodes", "set_node_limit", "snapshot", "path", "close",
                             "sleep"])
            if op == "start":
                opts = SearchOptions(use_book=False, mtdf=rng.random() < 0.2,
                                     killers=rng.random() < 0.3)
                ctl.start(rng.choice(positions),
                          Limits(nodes=rng.choice([2_000, 20_000, 100_000])), opts)
            elif op == "step_nodes":
                ctl.step_nodes(rng.randint(1, 5000))
            elif op == "set_node_limit":
                ctl.set_node_limit(rng.choice([None, 1, 1000, 50_000]))
            elif op == "snapshot":
                s = ctl.snapshot()
                assert s.state in ("idle", "searching", "paused", "done", "stopped",
                                   "node_limit")
            elif op == "path":
                ctl.path()
            elif op == "sleep":  # random timing between the calls is what is tested
                time.sleep(rng.random() * 0.01)
            else:
                getattr(ctl, op)()
        ctl.close(timeout=5)
        s = ctl.snapshot()
        assert s.state in ("idle", "done", "stopped", "node_limit"), (seq, s.state)

    def body() -> None:
        try:
            for seq in range(200):
                one(seq)
        except BaseException as e:  # reported below
            errors.append(e)

    th = threading.Thread(target=body, daemon=True)
    th.start()
    th.join(120)
    assert not th.is_alive(), "control sequence deadlocked"
    if errors:
        raise errors[0]
    assert ctl.error is None


def test_book_is_used_inside_the_search():
    """A (synthetic) book of the grandchildren's exact scores makes depth 2 a proven result
    found inside the search; a book of all children answers the root from the books."""
    from c4tui.book.format import make_book
    from c4tui.engine.solver.solver import Solver

    moves, score, cols = _rows(20, 20)[0]
    pos = Position.from_moves(moves)
    exact = Solver(hash_mb=16, book=None)
    keys, scores = {}, {}
    for c in pos.legal_moves():
        child = pos.copy()
        child.play(c)
        if child.is_over or any(child.is_winning_move(k) for k in child.legal_moves()):
            continue
        for g in child.legal_moves():
            grand = child.copy()
            grand.play(g)
            if grand.is_over or any(grand.is_winning_move(k) for k in grand.legal_moves()):
                continue
            k = min(grand.key(), grand.mirror().key())
            keys[k], scores[k] = k, exact.solve(grand, need_move=False).score
    book = make_book(list(keys), [scores[k] for k in keys], 1 << (pos.ply + 2))
    ctl = SearchController(book=book)
    ctl.start(pos, Limits(depth=2), SearchOptions(use_book=True))
    assert ctl.wait(30)
    it = ctl.snapshot().iterations[-1]
    best = max(s for s in cols if s is not None)
    assert not it.from_book and it.depth == 2
    assert cols[it.best_move] == best
    if score != 0:
        assert it.score == Score(score, Band.RECOGNIZED)
    # the children's scores: the root itself is answered from the book, exactly
    keys, scores = [], []
    for c in pos.legal_moves():
        child = pos.copy()
        child.play(c)
        keys.append(min(child.key(), child.mirror().key()))
        scores.append(-cols[c])
    book = make_book(keys, scores, 1 << (pos.ply + 1))
    ctl.close()
    ctl = SearchController(book=book)
    ctl.start(pos, Limits(depth=1), SearchOptions(use_book=True))
    assert ctl.wait(30)
    its = ctl.snapshot().iterations
    assert len(its) == 1 and its[0].from_book
    assert its[0].score == Score(score, Band.EXACT) and cols[its[0].best_move] == best
    ctl.close()


def test_step_nodes_while_running_pauses():
    ctl = SearchController()
    ctl.start(Position(), EXACT, NO_BOOK)
    # Wait until the kernel runs: on a cold numba cache (CI) it may first compile for a while.
    wait_until(lambda: ctl.snapshot().nodes, 300, "the kernel to search")
    ctl.step_nodes(1)
    assert ctl.wait_paused(5)
    snap = ctl.snapshot()
    assert snap.state == "paused"
    time.sleep(0.02)  # a window for nodes that must not come: not a wait for an event
    assert ctl.snapshot().nodes == snap.nodes
    assert len(ctl.path()) >= 1
    ctl.close()
    assert ctl.snapshot().state == "stopped"


# ------------------------------------------------------------------ the typed seam


def test_states_and_bands_are_enums_that_read_as_strings():
    res = run_search(Position.from_moves("4453"), Limits(nodes=5_000), NO_BOOK)
    assert res.reason is SearchState.NODE_LIMIT and res.reason == "node_limit"
    assert res.score.band is Band.HEURISTIC and str(res.score.band) == "heuristic"
    pos = Position.from_moves("121212")
    assert Score(18, Band.EXACT).words(pos) == "White wins in 1"
    assert Score(18, Band.EXACT).short(pos.ply) == "W1"
    assert (-Score(475, Band.HEURISTIC)).short(0) == "~L"
    assert Score(-475, Band.HEURISTIC).words(pos) == "Black expected to win (eval -475)"


def test_start_returns_at_once_even_for_large_tables():
    ctl = SearchController()
    t = time.perf_counter()
    ctl.start(Position.from_moves("44"), EXACT, SearchOptions(hash_mb=512, use_book=False))
    assert time.perf_counter() - t < 0.05  # the worker allocates the 512 MB
    ctl.pause()  # a command during the preparation applies to the search
    assert ctl.wait_paused(30)
    assert ctl.snapshot().state == "paused"
    ctl.start(Position.from_moves("4"), Limits(nodes=2_000), NO_BOOK)
    assert ctl.wait(30) and ctl.result.reason == "node_limit"
    assert ctl.snapshot().iterations[0].pv[0] in range(7)
    ctl.close()


def test_immediate_win_reports_one_iteration():
    ctl = SearchController()
    ctl.start(Position.from_moves("121212"), Limits(), NO_BOOK)
    assert ctl.wait(10)
    snap = ctl.snapshot()
    assert snap.depth == 1 and len(snap.iterations) == 1
    assert snap.iterations[0].pv == (0,) and snap.result.nodes == 0


def test_step_after_the_node_limit_continues_one_iteration_deeper():
    pos = Position.from_moves("4453")
    ctl = SearchController()
    ctl.start(pos, Limits(nodes=20_000), NO_BOOK)
    assert ctl.wait(30)
    before = ctl.snapshot()
    assert before.state == "node_limit"
    done = len(before.iterations)
    assert ctl.step_iteration()
    assert ctl.wait_paused(60)
    snap = ctl.snapshot()
    assert snap.state == "paused"
    # the finished iterations are kept, exactly one more ran; the next one is pending
    assert snap.iterations[:done] == before.iterations
    assert [it.depth for it in snap.iterations] == list(range(1, done + 2))
    assert snap.depth == done + 2 and snap.nodes > before.nodes
    ctl.resume()  # the node limit holds again: the search ends at once
    assert ctl.wait(10) and ctl.result.reason == "node_limit"
    assert ctl.result.depth == done + 1
    ctl.close()


def test_step_after_a_finished_search_says_nothing_to_step():
    ctl = SearchController()
    ctl.start(Position.from_moves("5252153716735222535361161417246636774"),
              EXACT, NO_BOOK)
    assert ctl.wait(30) and ctl.result.reason == "done"
    assert not ctl.step_iteration()
    assert ctl.snapshot().state == "done"


def test_window_parity_saves_re_searches_and_keeps_the_answer():
    """On a handful of openings the same-parity window re-searches less (the measured
    figure over 100 positions is in docs/engine-api.md) and the exact answers agree."""
    re = {}
    for parity in (False, True):
        total = 0
        for moves in ("4453", "44", "3344", "4412", "445566"):
            res = SearchController()
            res.start(Position.from_moves(moves), Limits(nodes=100_000),
                      SearchOptions(use_book=False, window_parity=parity))
            assert res.wait(60)
            total += sum(it.fail_highs + it.fail_lows for it in res.snapshot().iterations)
        re[parity] = total
    assert re[True] < re[False], re


def test_commands_during_preparation_never_deadlock():
    """Commands that arrive while the worker prepares (paused starts, 64 MB tables) and
    continuations after an end: no exception, no hang, a sane end state."""
    rng = random.Random(2026)
    positions = [Position.from_moves(m) for m in ("4", "4453", "44455335")]
    ctl = SearchController()
    for seq in range(60):
        for _ in range(rng.randint(3, 10)):
            op = rng.choice(["start", "start_paused", "pause", "resume", "stop",
                             "step_iteration", "step_nodes", "set_node_limit", "snapshot"])
            if op.startswith("start"):
                opts = SearchOptions(use_book=False, hash_mb=rng.choice([1, 64]))
                ctl.start(rng.choice(positions), Limits(nodes=rng.choice([2_000, 20_000])),
                          opts, paused=op == "start_paused")
            elif op == "step_nodes":
                ctl.step_nodes(rng.randint(1, 5000))
            elif op == "set_node_limit":
                ctl.set_node_limit(rng.choice([None, 1000, 50_000]))
            elif op == "snapshot":
                assert ctl.snapshot().state in ("idle", "searching", "paused", "done",
                                                "stopped", "node_limit")
            else:
                getattr(ctl, op)()
        ctl.close(timeout=5)
        assert ctl.snapshot().state in ("idle", "done", "stopped", "node_limit"), seq
    assert ctl.error is None


def test_a_stop_is_not_undone_by_a_later_pause_or_resume():
    ctl = SearchController()
    for hash_mb in (256, 1):  # during the preparation, then in the kernel
        ctl.start(Position.from_moves("44"), EXACT,
                  SearchOptions(hash_mb=hash_mb, use_book=False))
        if hash_mb == 1:
            wait_until(lambda: ctl.snapshot().nodes, 30, "the kernel to search")
        ctl.stop()
        ctl.pause()
        ctl.resume()
        assert ctl.wait(10)
        assert ctl.snapshot().state == "stopped"
    ctl.close()


def test_pause_right_after_resume_is_seen():
    """A pause that follows a resume before the kernel has left its pause loop (it looks
    every 2 ms) used to be taken for the old pause: wait_paused never returned."""
    ctl = SearchController()
    ctl.start(Position.from_moves("44"), EXACT, NO_BOOK)
    # inside a long iteration: the kernel pauses, not the driver
    wait_until(lambda: ctl.snapshot().nodes >= 100_000, 30, "100,000 nodes")
    ctl.pause()
    assert ctl.wait_paused(5)
    for _ in range(50):
        ctl.resume()
        ctl.pause()
        assert ctl.wait_paused(5)
        assert ctl.snapshot().state == "paused"
    ctl.close()


def test_the_listener_hears_each_iteration_and_the_end():
    """``listen``: called from the search's thread after each iteration and at the end,
    so a UI need not poll; a paused start and a step are told of too."""
    ctl = SearchController()
    heard: list[tuple[str, int]] = []
    ended = threading.Event()

    def listener() -> None:
        snap = ctl.snapshot()
        heard.append((str(snap.state), len(snap.iterations)))
        if not snap.state.active:
            ended.set()

    ctl.listen(listener)
    ctl.start(Position.from_moves("4453"), Limits(nodes=30_000), NO_BOOK)
    assert ended.wait(30)
    its = ctl.snapshot().iterations
    assert heard[-1] == ("node_limit", len(its))
    assert [n for _, n in heard[:-1]] == list(range(1, len(its) + 1))
    heard.clear()
    ended.clear()
    ctl.start(Position.from_moves("4453"), Limits(nodes=30_000), NO_BOOK, paused=True)
    assert ctl.step_iteration()
    wait_until(lambda: heard, 30, "the stepped iteration")
    assert heard[0] == ("paused", 1)
    ctl.listen(None)
    ctl.close()
