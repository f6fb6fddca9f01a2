"""``c4tui analyze`` and ``c4tui selfplay`` (c4tui/cli/analyze.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from c4tui.cli import app
from c4tui.cli.analyze import parse_option_set

runner = CliRunner()


def test_analyze_json_lines():
    r = runner.invoke(app, ["analyze", "4453", "--nodes", "20000", "--json", "--no-book"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines() if x.startswith("{")]
    its = [x for x in lines if x["type"] == "iteration"]
    last = lines[-1]
    assert its and last["type"] == "result"
    assert [x["depth"] for x in its] == list(range(1, len(its) + 1))
    for x in its:
        for k in ("alpha", "beta", "fail_highs", "fail_lows", "score", "band", "nodes", "nps",
                  "tt_probes", "tt_hits", "hit_rate", "tt_fill", "elapsed", "pv"):
            assert k in x
        assert 1 <= x["best_move"] <= 7
    assert 1 <= last["best_move"] <= 7 and last["best_move"] == its[-1]["best_move"]
    assert last["nodes"] == 20000 and last["reason"] == "node_limit"
    assert all(1 <= c <= 7 for c in last["pv"])


def test_analyze_exact_endgame_table():
    moves = "5252153716735222535361161417246636774"  # 37 discs, exact score 0
    r = runner.invoke(app, ["analyze", moves, "--no-book"])
    assert r.exit_code == 0, r.output
    assert "depth" in r.output and "principal variation" in r.output
    assert "band exact" in r.output and "draw" in r.output


def test_analyze_bad_input_is_one_line():
    r = runner.invoke(app, ["analyze", "4444444"])
    assert r.exit_code == 2
    assert "column d is full" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["analyze", "44", "--depth", "0"])
    assert r.exit_code == 2 and "max_depth" in r.output
    r = runner.invoke(app, ["analyze", "44", "--nodes", "-5"])
    assert r.exit_code == 2


def test_option_sets():
    o = parse_option_set("no-quiescence, killers,no-book", 1000, 4)
    assert not o.quiescence and o.killers and not o.use_book and o.node_limit == 1000
    r = runner.invoke(app, ["selfplay", "--a", "frobnicate"])
    assert r.exit_code == 2 and "unknown switch" in r.output


def test_selfplay_small():
    r = runner.invoke(app, ["selfplay", "--openings", "1", "--nodes", "2000",
                            "--b", "no-quiescence,no-book", "--a", "no-book"])
    assert r.exit_code == 0, r.output
    line = [x for x in r.output.splitlines() if "wins:losses:draws" in x][0]
    w, lo, d = (int(v) for v in line.split("games: ")[1].split()[0].split(":"))
    assert w + lo + d == 2
