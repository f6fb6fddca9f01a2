"""The evaluation graph on wide terminals: taller, with a scale (values and what a bar
reaching a row means); as it was at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync, until

from c4tui.app import C4App
from c4tui.app.widgets import EvalGraph
from c4tui.app.widgets.eval_graph import SCALE_W, scale_label

pytestmark = pytest.mark.usefixtures("tmp_home")

MOVES = "4453"


def test_scale_labels_say_value_and_disc():
    assert scale_label(1.0, 0) == "+1.00 W disc 4"  # the earliest win: the 4th disc
    assert scale_label(0.4, 1) == "-0.40 B disc 21"  # just above the shortest exact bar
    assert scale_label(0.2, 0) == "+0.20 W lean"  # a search's value, not a proof


@sync
async def test_graph_has_a_scale_at_160x50():
    app = C4App(Position.from_moves(MOVES), engine=False)
    async with app.run_test(size=(160, 50)) as pilot:
        graph = app.query_one(EvalGraph)
        await until(pilot, lambda: graph.size.height == 11, "the tall graph")
        lines = graph.render().plain.splitlines()
        assert len(lines) == 11
        assert lines[0].startswith("+1.00 W disc 4 ┤")
        assert lines[5].startswith("0 draw / level ┼")
        assert lines[10].startswith("-1.00 B disc 4 ┤")
        assert graph.ply_at(SCALE_W - 1) is None  # the scale is not a ply
        # a click on the chart's second column goes to ply 1
        await pilot.click(graph, offset=(SCALE_W + 1, 5))
        await until(pilot, lambda: app.model.ply == 1, "ply 1 viewed")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@sync
async def test_graph_keeps_its_legend_below_wide(size):
    app = C4App(Position.from_moves(MOVES), engine=False)
    async with app.run_test(size=size) as pilot:
        graph = app.query_one(EvalGraph)
        await pilot.pause()
        assert graph.size.height == (3 if size == (80, 24) else 5)
        lines = graph.render().plain.splitlines()
        assert lines[0].startswith("W") and "disc" not in graph.render().plain
        assert graph.ply_at(1) == 0
