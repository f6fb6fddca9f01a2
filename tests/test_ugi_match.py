"""Matches between UGI engine processes, run by tests/ugi_match.py (a small runner that
drives engines the way Cute Games does, with its own referee: no independent UGI match
runner can be installed from PyPI, Debian or npm)."""

from __future__ import annotations

import time

from ugi_client import start_engine
from ugi_match import RANDOM_CMD, play_game

#: The known perfect-play result: the first player wins with its 21st disc, ply 41.
PERFECT_PLIES = 41


def test_exact_self_play_is_a_first_player_win_on_ply_41():
    a = start_engine({"Exact": "true"}, name="c4tui-1")
    b = start_engine({"Exact": "true"}, name="c4tui-2")
    try:
        t0 = time.perf_counter()
        games = [play_game(a, b, "go p1time 60000 p2time 60000", "go p1time 60000 p2time "
                           "60000") for _ in range(2)]
        took = time.perf_counter() - t0
        for game in games:
            assert (game.result, game.plies) == ("p1win", PERFECT_PLIES), game.log
            # every move came from a finished exact solve: mate scores, never cut short
            assert all("score mate" in line for line in game.log), game.log
        assert not any("cut short" in x for x in a.lines + b.lines)
        assert took < 60, took  # seconds with the books (about 0.3 s a game when measured)
    finally:
        assert a.close() == 0 and b.close() == 0


def test_20000_nodes_beat_a_random_mover_every_game():
    results = []
    for seed in range(8):
        ours = start_engine({"Exact": "false"}, name="c4tui")
        rand = start_engine({"Seed": str(seed)}, cmd=RANDOM_CMD, name="random")
        try:
            if seed % 2 == 0:
                game = play_game(ours, rand, "go nodes 20000", "go")
                results.append(game.result == "p1win")
            else:
                game = play_game(rand, ours, "go", "go nodes 20000")
                results.append(game.result == "p2win")
            assert results[-1], (seed, game.result, game.moves)
        finally:
            ours.close()
            rand.close()
    assert results == [True] * 8
