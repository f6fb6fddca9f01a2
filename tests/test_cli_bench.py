"""c4tui bench --latency and --accuracy (issue 12's measurements), on a few positions."""

from __future__ import annotations

import re

from testdata import DATA
from typer.testing import CliRunner

from c4tui.cli import app


def _file(tmp_path, lines: list[str]):
    p = tmp_path / "few.txt"
    p.write_text("\n".join(lines) + "\n")
    return p


def _rows(discs: tuple[int, ...]) -> list[str]:
    rows = (DATA / "positions.txt").read_text().splitlines()
    return [r for r in rows if len(r.split()[0]) in discs][:6]


def test_latency_checks_every_column_and_reports_quantiles(tmp_path):
    rows = _rows((10, 11, 25))
    r = CliRunner().invoke(app, ["bench", "--latency", str(_file(tmp_path, rows)),
                                 "--no-peer", "-t", "1"])
    out = r.output
    assert "p50" in out and "p99" in out and "wrong column scores: 0" in out, out
    assert re.search(r"targets (met|MISSED): p99 [\d.]+ ms", out), out
    # a wrong expected score is caught and the exit status says so
    moves, score, *cols = rows[0].split()
    cols[0] = str(int(cols[0]) + 1) if cols[0] != "x" else "0"
    bad = _file(tmp_path, [" ".join([moves, score, *cols])])
    r = CliRunner().invoke(app, ["bench", "--latency", str(bad), "--no-peer", "-t", "1"])
    assert r.exit_code == 1 and "WRONG" in r.output and "wrong column scores: 1" in r.output


def test_accuracy_ends_with_its_figure(tmp_path):
    rows = _rows((11, 20))
    r = CliRunner().invoke(app, ["bench", "--accuracy", str(_file(tmp_path, rows)),
                                 "--nodes", "20k"])
    assert r.exit_code == 0, r.output
    last = r.output.strip().splitlines()[-1]
    m = re.fullmatch(r"accuracy (\d+)/(\d+) = [\d.]+%", last)
    assert m and int(m.group(2)) == len(rows) and int(m.group(1)) >= len(rows) // 2, last


def test_bad_positions_file_is_one_line(tmp_path):
    bad = _file(tmp_path, ["4453 -2 1 2 3"])
    for mode in ("--latency", "--accuracy"):
        r = CliRunner().invoke(app, ["bench", mode, str(bad), "--no-peer"])
        assert r.exit_code == 2, r.output
        assert r.output.strip().count("\n") == 0 and "few.txt:1" in r.output, r.output


def test_bench_files_that_are_not_regular_files_are_refused(tmp_path):
    """A FIFO or a device as a positions file: one line, exit 2, nothing read or blocked."""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (["--scaling", "--set", str(fifo)], ["--latency", "/dev/zero", "--no-peer"]):
        r = CliRunner().invoke(app, ["bench", *args])
        assert r.exit_code == 2, r.output
        assert r.output.strip().endswith("not a regular file"), r.output
