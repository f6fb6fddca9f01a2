"""Fuzzing ``c4tui solve`` and ``c4tui analyze``: arguments, options and stdin, in-process
through typer's CliRunner, plus a few real processes (invalid UTF-8 on a strict stdin).

Wanted (c4tui/cli/errors.py): exit status 0, 2 for bad input, 1 for a failure; every
problem one line ``c4tui: ...`` on stderr (option syntax errors are click's usage
message, exit status 2); no traceback; the good lines of ``solve`` still answered.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from c4tui.engine.board.position import Position
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_moves import games
from typer.testing import CliRunner

from c4tui.cli import app
from c4tui.units import UnitError, parse_mb

runner = CliRunner()

LINE_CHARS = st.sampled_from(list("1234567890 abcdefgx.-,\t\ufeff\u00a0\u0661é\x00\x1b"))
bad_text = st.one_of(st.text(LINE_CHARS, max_size=20), st.text(max_size=20),
                     st.text(st.sampled_from("1234567"), min_size=20, max_size=60))
option_values = st.one_of(st.sampled_from(["1", "4", "0", "-1", "1.5", "1e400", "nan", "2k",
                                           "", "x", "99999", "1_0", " 2"]),
                          st.text(max_size=6))


@st.composite
def position_lines(draw: st.DrawFn) -> str:
    """A position not yet over, as digits (sometimes padded)."""
    cols = draw(games())
    pos = Position.from_moves([c + 1 for c in cols])
    while pos.is_over:
        pos.undo()
    return draw(st.sampled_from(["{}", " {} ", "{}\t"])).format(pos.digits())


def _is_position(line: str) -> bool:
    try:
        return not Position.from_moves(line.strip()).is_over
    except ValueError:
        return False


def _valid_mb(text: str) -> bool:
    try:
        parse_mb(text, "--hash")
    except UnitError:
        return False
    return True


def check_run(r, bad_input: bool) -> list[str]:
    """Policy checks common to the commands; returns stderr's lines."""
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert "Traceback" not in err + r.stdout
    if err.startswith("Usage:"):  # click's own option errors (unknown option, not an int)
        assert r.exit_code == 2 and "Error" in err, err
        return []
    lines = err.splitlines()
    for ln in lines:
        assert ln.startswith("c4tui: "), err
    assert r.exit_code == (2 if bad_input else 0), (r.exit_code, err)
    return lines


@fuzz(fast=25, long=10_000)
@given(st.lists(st.one_of(position_lines(), bad_text), min_size=0, max_size=4),
       st.booleans(), st.booleans(), st.booleans(),
       st.one_of(st.none(), option_values), st.one_of(st.none(), st.sampled_from(["1", "2"])))
def test_solve(lines, use_stdin, analyze, stats, hash_text, threads):
    """solve: each good line answered (in order), each bad one named by its line."""
    count("cli: solve")
    args = ["solve"]
    if analyze:
        args.append("--analyze")
    if stats:
        args.append("--stats")
    args += ["--hash", hash_text if hash_text is not None else "1"]
    if threads is not None:
        args += ["--threads", threads]
    if use_stdin:
        lines = [ln.replace("\r", "").replace("\n", "") for ln in lines]
        r = runner.invoke(app, args, input="".join(ln + "\n" for ln in lines))
    else:
        r = runner.invoke(app, args + ["--", *lines] if lines else args)
    bad_hash = hash_text is not None and not _valid_mb(hash_text)
    # a blank line on stdin is skipped, neither solved nor an error (an argument "" is
    # the empty board, as stdin's '""' is)
    read = [(n, ln) for n, ln in enumerate(lines, 1) if not use_stdin or ln.strip()]
    good = [ln for _, ln in read if _is_position(ln)]
    errors = check_run(r, bad_hash or len(good) < len(read))
    if bad_hash or r.stderr.startswith("Usage:"):
        assert r.stdout == "", r.stdout  # refused before solving anything
        return
    out = r.stdout.splitlines()
    assert [o.split(" ")[0] for o in out] == [ln.strip() for ln in good], (lines, out)
    fields = 1 + (6 if analyze else 0) + (2 if stats else 0)
    assert all(len(o.split(" ")) == fields + 1 for o in out), out
    bad_lines = [n for n, ln in read if not _is_position(ln)]
    where = "line" if use_stdin else "argument"  # stdin's lines, the command line's arguments
    assert [int(e.split()[2].rstrip(":")) for e in errors if e.startswith(f"c4tui: {where} ")] \
        == bad_lines, errors


@fuzz(fast=25, long=10_000)
@given(st.one_of(position_lines(), bad_text), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.sampled_from(["1", "5", "0", "43", "-3"])),
       st.one_of(st.none(), option_values), st.one_of(st.none(), option_values))
def test_analyze(moves, use_stdin, as_json, depth, nodes, hash_text):
    """analyze: a result, or one line saying what was wrong with which argument."""
    count("cli: analyze")
    args = ["analyze", "--hash", "1", "--nodes", "2k"]
    if as_json:
        args.append("--json")
    if depth is not None:
        args += ["--depth", depth]
    if nodes is not None:
        args += ["--nodes", nodes]
    if hash_text is not None:
        args += ["--hash", hash_text]
    if use_stdin:
        r = runner.invoke(app, args, input=moves.replace("\r", "").replace("\n", "") + "\n")
    else:
        r = runner.invoke(app, [*args, "--", moves])
    err = r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in err + r.stdout
    if err.startswith("Usage:"):
        assert r.exit_code == 2
        return
    assert all(ln.startswith("c4tui: ") for ln in err.splitlines()), err
    assert len(err.splitlines()) <= 1, err
    if r.exit_code == 0:
        pos = Position.parse(moves.replace("\r", "").replace("\n", ""))
        assert not pos.is_over
        assert ("principal variation" in r.stdout) != as_json
    else:
        assert r.exit_code == 2 and err, (r.exit_code, err)


# ---------------------------------------------------------------- real processes
C4TUI = [sys.executable, "-m", "c4tui"]


def _run(args: list[str], data: bytes, env: dict[str, str] | None = None):
    return subprocess.run(C4TUI + args, input=data, capture_output=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("command", [["solve", "--hash", "1"],
                                     ["analyze", "--hash", "1", "--nodes", "1k"]])
@pytest.mark.parametrize("data", [b"\xff12\n", b"44\r\n\xef\xbb\xbf12\n", b"\x00\n",
                                  b"4" * 100_000 + b"\n"])
def test_real_processes_on_strict_stdin(command, data):
    """A strict UTF-8 stdin (PYTHONIOENCODING, a UTF-8 locale) used to raise
    UnicodeDecodeError with a traceback on invalid bytes."""
    count("cli: real processes")
    r = _run(command, data, {"PYTHONIOENCODING": "utf-8"})
    err = r.stderr.decode()
    assert "Traceback" not in err and r.returncode == 2, err
    assert all(ln.startswith("c4tui: ") for ln in err.splitlines()), err
