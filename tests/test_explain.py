"""Allis's rules as certificates (engine/explain, c4tui explain): the thesis's results, the
independent checker refusing what is wrong, soundness against scored positions, the CLI.

Other board sizes run in a ``c4tui explain --size`` subprocess (a process has one size).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest
from c4tui.engine.board.position import BLACK, WHITE, Position
from c4tui.engine.explain import Certificate, check, explain
from c4tui.engine.explain.certificate import ProofNode, RuleUse
from c4tui.engine.explain.check import CheckError, verify
from testdata import load_pons, load_positions, sample

CLI = [sys.executable, "-m", "c4tui"]


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def _wrong(cert: Certificate, score_to_move: int, to_move: int) -> bool:
    """Whether ``cert`` claims more than the exact score (of the side to move) allows."""
    white = score_to_move if to_move == WHITE else -score_to_move
    return {None: False, "black at least draws": white > 0, "black wins": white >= 0,
            "white wins": white <= 0, "white at least draws": white < 0}[cert.proves]


# ----------------------------------------------------------------- the thesis's results
def test_claimeven_alone_proves_34444445():
    pos = Position.from_moves("34444445")
    cert = explain(pos)
    assert cert.proves == "black at least draws"
    assert cert.tree == 0 and cert.checked is True
    assert {r.rule for _, r in cert.rules()} == {"claimeven"}
    assert check(pos, cert)


@pytest.mark.parametrize("first", "123567")
def test_black_draws_after_every_first_move_but_d(first):
    cert = explain(Position.from_moves(first))
    assert cert.proves in ("black at least draws", "black wins")
    assert cert.checked is True and 1 <= cert.tree <= 2  # only Black's reply searched


def test_nothing_claims_black_after_d1():
    cert = explain(Position.from_moves("4"), budget=0.3)
    assert cert.proves is None or cert.proves.startswith("white")
    assert cert.checked is None or cert.checked


@pytest.mark.parametrize(("size", "most"), [("6x6", 0), ("6x4", 7), ("6x8", 7)])
def test_empty_boards_of_six_columns(size, most):
    got = _run("explain", "--size", size, "--json", "")
    assert got.returncode == 0, got.stderr
    row = json.loads(got.stdout)
    assert row["proves"] == "black at least draws" and row["checked"] is True
    assert row["tree"] <= most and row["moves"] == ""


def test_empty_7x4_board_has_a_small_tree():
    """Black at least draws on the empty 7x4 board: the first proof has 96 positions above
    the rules' leaves, the smallest tree (found within the budget) 80."""
    got = _run("explain", "--size", "7x4", "--json", "--budget", "120", "")
    assert got.returncode == 0, got.stderr
    row = json.loads(got.stdout)
    assert row["proves"] == "black at least draws" and row["checked"] is True
    assert row["tree"] <= 84


def test_odd_heights_have_no_rules():
    got = _run("explain", "--size", "5x5", "3")
    assert got.returncode == 0, got.stderr
    assert "proves nothing (the rules need an even number of rows" in got.stdout


# ------------------------------------------------------------------------ the checker
def _cover(moves: str = "34444445") -> tuple[Position, Certificate]:
    pos = Position.from_moves(moves)
    cert = explain(pos)
    assert cert.proof is not None and cert.checked
    return pos, cert


def _with_rules(cert: Certificate, rules: tuple[RuleUse, ...]) -> Certificate:
    assert cert.proof is not None
    return replace(cert, proof=replace(cert.proof, rules=rules))


def test_checker_refuses_a_missing_rule():
    pos, cert = _cover()
    assert cert.proof is not None
    fewer = _with_rules(cert, cert.proof.rules[1:])
    with pytest.raises(CheckError, match="not refuted"):
        verify(pos, fewer)
    assert not check(pos, fewer)


def test_checker_refuses_a_rule_that_is_no_instance():
    pos, cert = _cover()
    assert cert.proof is not None
    first = cert.proof.rules[0]
    low, up = first.squares  # a claimeven moved up one row: its upper square is odd
    col = low[0]
    shifted = replace(first, squares=(f"{col}{int(low[1:]) + 1}", f"{col}{int(up[1:]) + 1}"))
    bad = _with_rules(cert, (shifted, *cert.proof.rules[1:]))
    with pytest.raises(CheckError, match="not an instance|not empty"):
        verify(pos, bad)


def test_checker_refuses_a_claimed_refutation_the_rule_does_not_make():
    pos, cert = _cover()
    assert cert.proof is not None
    first = cert.proof.rules[0]
    other = next(g for r in cert.proof.rules[1:] for g in r.refutes if g not in first.refutes)
    bad = _with_rules(cert, (replace(first, refutes=(*first.refutes, other)),
                             *cert.proof.rules[1:]))
    with pytest.raises(CheckError, match="does not refute"):
        verify(pos, bad)


def test_checker_refuses_rules_that_conflict():
    pos, cert = _cover()
    assert cert.proof is not None
    ce = cert.proof.rules[0]
    col, row = ce.squares[1][0], int(ce.squares[1][1:])
    # a vertical from the claimeven's even square up: both answer that square
    vertical = RuleUse("vertical", (f"{col}{row}", f"{col}{row + 1}"), ())
    bad = _with_rules(cert, (*cert.proof.rules, vertical))
    with pytest.raises(CheckError, match="cannot be used together"):
        verify(pos, bad)


def test_checker_refuses_a_win_without_an_aftereven():
    pos, cert = _cover()
    with pytest.raises(CheckError):
        verify(pos, replace(cert, proves="black wins"))
    with pytest.raises(CheckError):
        verify(pos, replace(cert, side="white"))


def test_checker_refuses_a_tree_that_skips_a_reply():
    pos = Position.from_moves("1")
    cert = explain(pos)
    assert cert.proof is not None and cert.proof.kind == "move" and check(pos, cert)
    child = cert.proof.children[0]  # White to move: a rules leaf
    # the same position as a "replies" node answering one of White's seven moves
    fake = ProofNode(child.moves, "replies", children=(ProofNode(child.moves + "1", "four"),))
    bad = replace(cert, proof=replace(cert.proof, children=(fake,)), tree=2)
    with pytest.raises(CheckError, match="every reply of the opponent must be answered"):
        verify(pos, bad)
    # Black's move replaced by an illegal one
    moved = replace(cert.proof, children=(replace(child, moves="1" + "8"),))
    with pytest.raises(CheckError, match="not a move"):
        verify(pos, replace(cert, proof=moved))


# ---------------------------------------------------------------------- smaller trees
@pytest.mark.parametrize(("moves", "claim"), [("516175347634662", "black at least draws"),
                                              ("31646721343253", "white wins")])
def test_a_tree_is_made_smaller_and_still_checked(moves, claim):
    """The first proof (the shallowest) has 97 and 65 positions; the smallest tree, found
    in the time left, 41 each, and the checker accepts it."""
    from c4tui.engine.explain import default_side
    from c4tui.engine.explain.proof import search

    pos = Position.from_moves(moves)
    sides = (default_side(pos), 1 - default_side(pos))
    first = search(pos, sides, 30, smaller=False)
    assert first is not None and first[1].internal() >= 60
    cert = explain(pos, budget=30)
    assert cert.proves == claim and cert.checked is True and check(pos, cert)
    assert cert.tree <= 45 and cert.tree == cert.proof.internal()


def test_no_time_left_keeps_the_first_tree():
    """Minimising is done in the budget's time left only: with none, the first proof is
    kept whole (and still checked)."""
    import time

    from c4tui.engine.explain.proof import Minimiser, Prover

    pos = Position.from_moves("516175347634662")
    prover = Prover(BLACK, time.perf_counter() + 30)
    first = next(got for depth in range(20) if (got := prover.prove(pos, depth)))
    prover.deadline = time.perf_counter()  # the budget is spent
    kept = Minimiser(prover, need_win=False).improve(first, pos)
    assert kept.internal() == first.internal() > 41
    cert = Certificate(pos.digits(), "black", "black at least draws", kept, kept.internal())
    verify(pos, cert)


# ------------------------------------------------------------------------- soundness
def test_sound_on_scored_positions():
    """No certificate claims more than the exact score (BitBully's and Pons's scores)."""
    rows = [(m, s) for m, s, _ in sample(load_positions(), 100, 35)]
    rows += sample(load_pons("Test_L2_R1"), 70, 35) + sample(load_pons("Test_L1_R1"), 40, 35)
    proven = 0
    for moves, score in rows:
        pos = Position.from_moves(moves)
        cert = explain(pos, budget=0.02)
        assert not _wrong(cert, score, pos.to_move), (moves, score, cert.proves)
        assert cert.checked is not False, (moves, cert.notes)
        proven += cert.proves is not None
    assert proven >= 40  # the test can fail: it sees certificates


def test_white_odd_threat_wins():
    # White's odd threat on a3 of Allis's diagram 8.1 analogue: found and checked when
    # argued for White at a position with Black to move
    for moves, score in sample(load_pons("Test_L2_R1"), 400, 7):
        pos = Position.from_moves(moves)
        if pos.to_move != BLACK:
            continue
        cert = explain(pos, side=WHITE, budget=0.01)
        if cert.proves == "white wins":
            assert score < 0 and cert.checked is True
            uses = [r.rule for _, r in cert.rules()]
            assert "oddthreat" in uses
            return
    pytest.fail("no White odd-threat certificate in the sample")


# ------------------------------------------------------------------------------- CLI
def test_cli_text_and_json():
    got = _run("explain", "34444445")
    assert got.returncode == 0, got.stderr
    first, *rest = got.stdout.splitlines()
    assert first.startswith("34444445: black at least draws (the rules at this position;")
    assert "checked" in first
    assert rest and all(line.lstrip().startswith("claimeven") for line in rest)
    got = _run("explain", "--json", stdin="34444445\n\n1\n")
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert [r["moves"] for r in rows] == ["34444445", "1"]
    assert set(rows[0]) >= {"moves", "proves", "rules", "tree", "checked"}
    assert rows[0]["tree"] == 0 and rows[1]["tree"] == 1
    assert {"rule", "squares", "refutes"} <= set(rows[0]["rules"][0])


@pytest.mark.parametrize(("args", "message"), [
    (["--budget", "x", "1"], "c4tui: --budget x: not a number of seconds"),
    (["--budget", "0", "1"], "c4tui: --budget 0: out of range"),
    (["--side", "red", "1"], "c4tui: --side red: expected white or black"),
    (["18"], "c4tui: argument 1: "),
    (["4444444"], "c4tui: argument 1: "),
])
def test_cli_bad_input(args, message):
    got = _run("explain", *args)
    assert got.returncode == 2
    assert got.stderr.startswith(message) and len(got.stderr.splitlines()) == 1
    assert "Traceback" not in got.stderr


def test_cli_bad_line_keeps_the_others():
    got = _run("explain", stdin="34444445\n99x\n1\n")
    assert got.returncode == 2
    assert got.stderr.startswith("c4tui: line 2: ")
    assert got.stdout.count("black at least draws") == 2


def test_the_checker_shares_no_code_with_the_finder():
    import ast
    import importlib
    from pathlib import Path

    # the module (the package's name "check" is the function)
    checker = importlib.import_module("c4tui.engine.explain.check")
    tree = ast.parse(Path(checker.__file__).read_text())
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not imported & {"rules", "conflicts", "cover", "groups", "evaluate", "proof"}
    assert {"certificate"} <= imported  # the dataclasses it reads, and nothing else of ours


def test_instances_list_every_rule_a_cover_is_chosen_from():
    from c4tui.engine.explain import instances

    pos = Position.from_moves("34444445")
    found = instances(pos, BLACK)
    cert = explain(pos)
    kinds = {u.rule for u in found}
    assert {"claimeven", "vertical", "lowinverse", "highinverse", "before"} <= kinds
    assert all(u.refutes for u in found)  # only instances that refute something
    for _, used in cert.rules():
        assert used in found
    with pytest.raises(ValueError):
        instances(pos, WHITE)  # White is to move


def test_help_names_every_option_with_text():
    from typer.testing import CliRunner

    from c4tui.cli import app

    got = CliRunner().invoke(app, ["explain", "--help"], env={"COLUMNS": "200"})
    assert got.exit_code == 0, got.output
    for option, says in (("--json", "One JSON object per position"),
                         ("--budget", "Seconds for the proof search"),
                         ("--side", "The side to argue for"), ("--size", "Board size")):
        line = next(ln for ln in got.output.splitlines() if ln.lstrip("│ ").startswith(option))
        assert says in line, line


def test_json_certificates_are_checked_again_from_their_text():
    from c4tui.engine.explain.certificate import certificate_from_dict

    got = _run("explain", "--json", "34444445", "1", "456315111476")
    assert got.returncode == 0, got.stderr
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    for row in rows:
        pos = Position.from_moves(row["moves"])
        cert = certificate_from_dict(row)
        assert row["proves"] and check(pos, cert), row["moves"]
        # one rule fewer at the first rules leaf: no longer a proof
        stack, leaf = [row["proof"]], None
        while stack and leaf is None:
            node = stack.pop()
            leaf = node if node["kind"] == "rules" else None
            stack += node.get("children", [])
        if leaf is not None:
            leaf["rules"] = leaf["rules"][1:]
            assert not check(pos, certificate_from_dict(row)), row["moves"]
        else:  # a tree of fours: the claimed winner changed is refused
            row["side"] = "white" if row["side"] == "black" else "black"
            assert not check(pos, certificate_from_dict(row)), row["moves"]
    with pytest.raises(ValueError):
        certificate_from_dict({"moves": "1", "side": "black", "proof": {"kind": "nonsense"}})
