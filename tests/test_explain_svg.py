"""``c4tui explain MOVES --svg FILE`` (issue 35): the board with the rules' squares marked,
read back from the file and counted against the certificate; bad input writes nothing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.explain import explain
from typer.testing import CliRunner

from c4tui.cli import app

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def _marks(path) -> dict[str, str]:
    """The picture's marked squares: square name -> the letters of its rules."""
    root = ET.parse(path).getroot()
    return {g.get("data-square"): g.get("data-rules") for g in root.iter(f"{SVG}g")
            if g.get("class") == "rule-mark"}


def _legend(path) -> list[str]:
    root = ET.parse(path).getroot()
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]


def _leaf_rules(moves: str):
    cert = explain(Position.from_moves(moves))
    assert cert.checked and cert.proof is not None
    leaf = cert.proof
    while leaf.children:
        leaf = leaf.children[0]
    return cert, leaf.rules


@pytest.mark.parametrize("moves", ["34444445", "1"])  # the rules here; a tree's leaf
def test_the_marked_squares_are_the_certificates(tmp_path, moves):
    out = tmp_path / "why.svg"
    res = runner.invoke(app, ["explain", moves, "--svg", str(out)])
    assert res.exit_code == 0, res.output
    assert "black at least draws" in res.output  # the text as without --svg
    cert, rules = _leaf_rules(moves)
    marks = _marks(out)
    want: dict[str, str] = {}
    for i, use in enumerate(rules):
        for square in use.squares:
            want[square] = want.get(square, "") + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i]
    assert marks == want  # every square of every rule, each with its rules' letters
    assert len(marks) == len({sq for use in rules for sq in use.squares})
    legend = _legend(out)
    assert "Black at least draws" in " ".join(legend)
    for i, use in enumerate(rules):  # a line per rule, its squares named
        assert f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[i]}: {use.rule} {' '.join(use.squares)}" \
            in legend[3 + i]
    if cert.tree:
        assert "the rules after d1" in " ".join(legend)


def test_no_proof_marks_nothing_and_says_so(tmp_path):
    out = tmp_path / "why.svg"
    res = runner.invoke(app, ["explain", "4", "--budget", "0.05", "--svg", str(out)])
    assert res.exit_code == 0, res.output
    assert _marks(out) == {}
    assert any(line.startswith("no proof") for line in _legend(out))


@pytest.mark.parametrize("args, says", [
    (["9"], "explain: argument 1: character 1 '9': not a column"),
    (["4444444"], "explain: argument 1:"),  # an illegal move
    (["1", "2"], "explain: --svg draws one position"),
    ([], "explain: --svg draws one position"),
])
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, args, says):
    out = tmp_path / "why.svg"
    res = runner.invoke(app, ["explain", *args, "--svg", str(out)])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"c4tui: {says}"), res.output
    assert not out.exists()


def test_a_folder_is_refused_and_an_old_file_kept(tmp_path):
    res = runner.invoke(app, ["explain", "34444445", "--svg", str(tmp_path)])
    assert res.exit_code == 2 and "is a folder" in res.output
    old = tmp_path / "old.svg"
    old.write_text("kept")
    res = runner.invoke(app, ["explain", "99", "--svg", str(old)])
    assert res.exit_code == 2 and old.read_text() == "kept"
