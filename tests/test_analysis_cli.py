"""``c4tui analyze`` and ``c4tui selfplay`` (c4tui/cli/analyze/, c4tui/cli/selfplay.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from c4tui.cli import app
from c4tui.cli.selfplay import parse_option_set

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
    assert r.exit_code == 2 and "--depth 0: out of range (1 to 42 plies)" in r.output
    assert "max_depth" not in r.output  # no internal names
    r = runner.invoke(app, ["analyze", "44", "--nodes", "-5"])
    assert r.exit_code == 2


def test_option_sets():
    o = parse_option_set("no-quiescence, killers,no-book", 4)
    assert not o.quiescence and o.killers and not o.use_book and o.hash_mb == 4
    r = runner.invoke(app, ["selfplay", "--candidate", "frobnicate"])
    assert r.exit_code == 2 and "unknown switch" in r.output


def test_selfplay_small():
    r = runner.invoke(app, ["selfplay", "--openings", "1", "--nodes", "2000",
                            "--baseline", "no-quiescence,no-book", "--candidate", "no-book"])
    assert r.exit_code == 0, r.output
    line = [x for x in r.output.splitlines() if "wins:losses:draws" in x][0]
    w, lo, d = (int(v) for v in line.split("games: ")[1].split()[0].split(":"))
    assert w + lo + d == 2


def test_bad_values_are_one_line_errors_that_name_the_option():
    for args, message in (
        (["--nodes", "1.0e400"], "--nodes 1.0e400: out of range"),
        (["--nodes", "nan"], "--nodes 'nan': not a number"),
        (["--hash", "1.5"], "--hash 1.5: not a whole number of MB"),
        (["--hash", "0"], "--hash 0: out of range"),
    ):
        r = runner.invoke(app, ["analyze", "44", *args])
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output and "Traceback" not in r.output, r.output
        assert "hash_mb" not in r.output and "node_limit" not in r.output
    r = runner.invoke(app, ["selfplay", "--nodes", "1e400"])
    assert r.exit_code == 2 and "--nodes 1e400: out of range" in r.output


def test_analyze_reads_the_position_from_stdin():
    r = runner.invoke(app, ["analyze", "--json", "--nodes", "2000", "--no-book"],
                      input="4453\n")
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines() if x.startswith("{")]
    assert lines[-1]["type"] == "result"
    same = runner.invoke(app, ["analyze", "4453", "--json", "--nodes", "2000", "--no-book"])
    assert [x for x in same.output.splitlines() if x.startswith("{")][-1] == \
        [x for x in r.output.splitlines() if x.startswith("{")][-1]
    r = runner.invoke(app, ["analyze"], input="4453\n44\n")
    assert r.exit_code == 2 and "analyze takes one" in r.output


def test_analyze_prints_moves_in_one_notation():
    r = runner.invoke(app, ["analyze", "4453", "--nodes", "5000", "--no-book"],
                      env={"COLUMNS": "160"})
    assert r.exit_code == 0, r.output
    best = [x for x in r.output.splitlines() if x.startswith("best move")][0]
    pv = [x for x in r.output.splitlines() if x.startswith("principal variation")][0]
    assert best.split()[2].rstrip(",") in "1234567"
    assert set(pv.split(": ")[1]) <= set("1234567")
    assert pv.split(": ")[1].startswith(best.split()[2].rstrip(","))
    assert "column" not in best  # one notation, not "d (column 4)"


def test_switches_left_out_keep_the_search_defaults():
    from c4tui.engine.seam import SearchOptions

    from c4tui.cli.selfplay import switch_names

    o = parse_option_set("", None)
    assert o == SearchOptions()
    assert "book" in switch_names() and "threat-ordering" in switch_names()
    help_text = runner.invoke(app, ["analyze", "--help"], env={"COLUMNS": "200"}).output
    for name in switch_names():  # every switch of the search is one of analyze's too
        assert f"--no-{name}" in help_text, name
    assert parse_option_set("threat_ordering", 10).threat_ordering


def _analyze(*args: str) -> str:
    """``c4tui analyze`` in a subprocess (the real command, books as installed)."""
    r = subprocess.run([sys.executable, "-m", "c4tui", "analyze", *args], capture_output=True,
                       text=True, timeout=600, env={**os.environ, "COLUMNS": "160"})
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_analyze_names_where_an_answer_came_from():
    """Bug (issue 24): a root where every move loses at once (17 and 13 discs, beyond the
    books) was answered without a book lookup, yet labelled ``book`` and
    ``"from_book": true``. One vocabulary now: ``book``, ``exact``, ``search``."""
    for moves, source in (("44444433333355555", "exact"), ("6563243132376", "exact"),
                          ("445566", "exact"), ("4453", "book")):
        lines = [json.loads(x) for x in _analyze(moves, "--json").splitlines()]
        (it,), res = lines[:-1], lines[-1]
        assert (it["source"], it["from_book"]) == (source, source == "book"), moves
        assert res["source"] == source and res["band"] == "exact", moves
        text = _analyze(moves)
        row = next(ln for ln in text.splitlines() if ln.strip().startswith(source))
        assert row.split()[0] == source, text
        assert ("book" in text) == (source == "book"), text
        assert "search complete" not in text, text  # nothing was searched
    lines = [json.loads(x) for x in _analyze("4453", "--json", "--no-book", "--nodes",
                                             "2000").splitlines()]
    assert {x["source"] for x in lines} == {"search"} and not any(
        x.get("from_book") for x in lines)
