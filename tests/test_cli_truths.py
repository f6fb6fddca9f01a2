"""Issue 36, items 9-12: the command line's small truths. ``solve`` names a bad argument
by its argument number and reads ``""`` on stdin as the empty board; ``bench --scaling``
names its sets; ``analyze`` prints no speed or time for a book answer; ``solve`` warns of
a long solve by its time, not by counting squares."""

from __future__ import annotations

import io
import json

import pytest

from c4tui.cli import main


def _run(argv: list[str], capsys, stdin: str | None = None,
         monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


# -- item 9: arguments are arguments, not lines ------------------------------------------

def test_solve_names_a_bad_argument_by_its_number(capsys):
    """Bug: ``solve 44 4458`` said ``line 2: character 4``; it is argument 2."""
    code, out, err = _run(["solve", "44", "4458"], capsys)
    assert (code, out) == (2, "44 1\n")
    assert err == "c4tui: argument 2: character 4 '8': not a column (expected 1-7)\n"


def test_solve_names_a_run_of_squares_by_its_arguments(capsys):
    """Square words make one position: the error names the arguments it spans."""
    code, out, err = _run(["solve", "44", "d1", "d2", "d3", "d5"], capsys)
    assert (code, out) == (2, "44 1\n")
    assert err.startswith("c4tui: arguments 2-5: move 4 'd5': "), err


def test_bench_scaling_names_the_sets_it_knows(capsys):
    """Bug: ``bench --scaling --set L2R1`` said only that there was no such set."""
    code, out, err = _run(["bench", "--scaling", "--set", "L2R1"], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("c4tui: --set L2R1: no such file"), err
    assert "Test_L2_R1" in err and "Test_L1_R2" in err


# -- item 12: "" on stdin is the empty board, as on the command line -----------------------

def test_solve_reads_quotes_on_stdin_as_the_empty_board(capsys, monkeypatch):
    """Bug: a line ``""`` was refused (``line 1: character 1 '"'``)."""
    code, out, err = _run(["solve"], capsys, '""\n44\n\n  \'\' \n', monkeypatch)
    assert (code, err) == (0, "")
    assert out == " 1\n44 1\n 1\n"


def test_solve_stdin_errors_still_name_lines(capsys, monkeypatch):
    code, out, err = _run(["solve"], capsys, '""\n\n448\n', monkeypatch)
    assert (code, out) == (2, " 1\n")
    assert err == "c4tui: line 3: character 3 '8': not a column (expected 1-7)\n"


def test_analyze_reads_quotes_on_stdin_as_the_empty_board(capsys, monkeypatch):
    code, out, err = _run(["analyze", "--json", "--no-book", "--depth", "2"], capsys,
                          '""\n', monkeypatch)
    assert (code, err) == (0, "")
    result = json.loads(out.splitlines()[-1])
    assert result["type"] == "result" and result["depth"] == 2


# -- item 10: a book answer has no speed and no search time --------------------------------

def test_analyze_book_answer_prints_no_speed_or_time(capsys, monkeypatch):
    """Bug: ``analyze 4453`` printed ``81`` n/s and ``308ms`` for a book answer: the time
    was the solver's set-up, the speed nodes over it. The JSON keeps its keys, null."""
    monkeypatch.setenv("COLUMNS", "160")
    code, out, err = _run(["analyze", "4453", "--json"], capsys)
    assert code == 0, err
    (it,) = [json.loads(x) for x in out.splitlines() if '"iteration"' in x]
    assert it["source"] == "book"
    for key in ("nps", "elapsed", "total_elapsed", "hit_rate", "tt_fill"):
        assert key in it and it[key] is None, key
    assert isinstance(it["nodes"], int)  # the exact solver's, finding the line
    code, out, err = _run(["analyze", "4453"], capsys)
    assert code == 0, err
    row = next(ln.split() for ln in out.splitlines() if ln.strip().startswith("book"))
    assert row[1:3] == ["-", "-"] and row[-5:-1] == ["-"] * 4, row
    assert not any(cell.endswith(("ms", "s")) and cell[0].isdigit() for cell in row), row
    assert "best move 6, Black wins in 18, band exact (answered from the books)\n" in out


def test_analyze_search_keeps_its_numbers(capsys):
    code, out, err = _run(["analyze", "4453", "--json", "--no-book", "--nodes", "5k"], capsys)
    assert code == 0, err
    its = [json.loads(x) for x in out.splitlines() if '"iteration"' in x]
    assert its and all(isinstance(x["nps"], int) and isinstance(x["elapsed"], float)
                       for x in its)
