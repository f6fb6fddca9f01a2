"""A strength travels as one value from where it is typed to the search: a node count as
the very ``Limits`` the play-mode search is started with, a level as the number the
levels' ``play`` chooses with. Typed on the command line (``--strength``), in the
engine-versus-engine prompt or parsed alone, the same text reaches the same search."""

from __future__ import annotations

import queue
import random

import pytest
from c4tui.engine.analysis import controller
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Limits, Score, SearchOptions, SearchResult, SearchState
from c4tui.engine.solver.solver import Solver

from c4tui.app import C4App
from c4tui.app.bridge import player as player_module
from c4tui.app.bridge.loader import Engine
from c4tui.app.bridge.player import EnginePlayer, PlaySettings
from c4tui.app.controllers.play import versus_settings
from c4tui.cli import main
from c4tui.units import Strength, parse_strength

pytestmark = pytest.mark.usefixtures("tmp_home")

# 16 discs, White to move and wins: the solver scores it in milliseconds
MIDGAME = "1725427335341174"


class RecordingSearch:
    """The analysis search, as far as the play thread uses it: what it was started with,
    and an answer at once (the search is not the subject here, what reaches it is)."""

    started: list[tuple[Limits, SearchOptions | None]] = []

    def __init__(self, nice: int = 0) -> None:
        self.error: BaseException | None = None
        self.result: SearchResult | None = None

    def start(self, pos: Position, limits: Limits, options: SearchOptions | None = None,
              **_: object) -> None:
        self.started.append((limits, options))
        col = pos.legal_moves()[0]
        self.result = SearchResult(col, Score(0, Band.EXACT), (col,), 1234, 1,
                                   SearchState.DONE)

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def stop(self) -> None:
        pass


def _cli_settings(typed: str, monkeypatch: pytest.MonkeyPatch) -> PlaySettings:
    """The play settings ``c4tui 44 --play black --strength <typed>`` opens the app with."""
    seen: list[PlaySettings | None] = []
    monkeypatch.setattr(C4App, "run", lambda self: seen.append(self.play.settings))
    with pytest.raises(SystemExit) as info:
        main(["44", "--play", "black", "--strength", typed])
    assert info.value.code in (0, None) and seen[0] is not None
    return seen[0]


def _what_the_engine_used(settings: PlaySettings, monkeypatch: pytest.MonkeyPatch
                          ) -> tuple[list[tuple[Limits, SearchOptions | None]], list[int]]:
    """The engine's move at ``settings`` in MIDGAME: the search's starts, and the levels
    its choice was made at."""
    started: list[tuple[Limits, SearchOptions | None]] = []
    levels: list[int] = []
    real_play = player_module.play

    def play(pos: Position, number: int, scores, rng):  # type: ignore[no-untyped-def]
        levels.append(number)
        return real_play(pos, number, scores, rng)

    monkeypatch.setattr(RecordingSearch, "started", started)
    monkeypatch.setattr(controller, "SearchController", RecordingSearch)
    monkeypatch.setattr(player_module, "play", play)
    engine = Engine(Solver(hash_mb=16, book=None), None, None)
    answers: queue.Queue = queue.Queue()
    player = EnginePlayer(lambda: engine, answers.put, rng=random.Random(7))
    try:
        pos = Position.from_moves(MIDGAME)
        player.think(pos, settings)
        reply = answers.get(timeout=60)
        assert reply.error == "" and reply.col is not None and pos.can_play(reply.col)
    finally:
        player.shutdown()
    return started, levels


@pytest.mark.parametrize("typed, limits, level", [
    ("2M", Limits(nodes=2_000_000), None),
    ("2_000_000", Limits(nodes=2_000_000), None),
    ("11", Limits(nodes=11), None),  # the least node count: 10 is a level
    ("L5", None, 5),
    ("10", None, 10),
])
def test_a_typed_strength_reaches_the_search_unchanged(typed, limits, level, monkeypatch):
    strength = parse_strength(typed, "--strength")
    assert strength.limits == limits
    cli = _cli_settings(typed, monkeypatch)
    white, black = versus_settings(f"{typed} {typed}")
    # the command line, the versus prompt and the parser agree on one value
    assert cli == PlaySettings(1, strength) == black and white == PlaySettings(0, strength)
    started, levels = _what_the_engine_used(cli, monkeypatch)
    if limits is not None:  # the analysis search alone, without the books, at that limit
        assert started == [(limits, SearchOptions(use_book=False))] and levels == []
    else:  # the exact scores and the level's choice: no analysis search at all
        assert started == [] and levels == [level]


def test_a_strength_is_a_level_or_a_node_limit_never_neither():
    assert Strength.of_nodes(2_000_000) == Strength(limits=Limits(nodes=2_000_000))
    assert str(Strength.of_nodes(2_000_000)) == "2M nodes"
    with pytest.raises(ValueError, match="out of range"):
        Strength(level=11)
    with pytest.raises(ValueError, match="node limit"):
        Strength(limits=Limits(time=1.0))  # typed strengths are nodes: none would show
