"""What a new ``c4tui solve`` process does for a position past the books (issue 36): it
opens the 12-ply database only where a lookup can hit, maps it and checks its CRC once per
version of the file, and leaves the solver's table to the pages its search touches."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
from c4tui.book import db12
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver
from testdata import load_positions
from typer.testing import CliRunner

from c4tui.cli import app

runner = CliRunner()
SCORES = {moves: score for moves, score, _ in load_positions()}
#: 13 discs: the floor of its search is a lookup of its 12-disc parents.
THIRTEEN = "2567355334757"


def _solve(*args: str) -> list[list[str]]:
    r = runner.invoke(app, ["solve", "--stats", "--threads", "1", *args])
    assert r.exit_code == 0, (r.output, r.exception)
    return [line.split() for line in r.output.splitlines()]


def test_a_solve_past_13_discs_never_opens_the_12_ply_database(monkeypatch):
    # a 14-disc position's parents have 13 discs: no lookup of its search can hit the
    # database, so the process must not look for it, map it or read it
    def refuse(*args, **kwargs):
        raise AssertionError("the 12-ply database was opened")

    for name in ("source_path", "load_db12", "load_cache", "cache_path"):
        monkeypatch.setattr(db12, name, refuse)
    rows = _solve("24464572743613", "52377756743515")
    assert [(r[0], int(r[1])) for r in rows] == [
        ("24464572743613", SCORES["24464572743613"]),
        ("52377756743515", SCORES["52377756743515"])]
    assert all(int(r[2]) > 0 for r in rows)  # searched, not answered by a book


def test_a_13_disc_solve_checks_the_database_once_per_version(monkeypatch):
    calls: list[bool] = []
    real = db12.load_cache

    def spy(path: Path, verify: bool = True):
        calls.append(verify)
        return real(path, verify)

    monkeypatch.setattr(db12, "load_cache", spy)
    first = _solve(THIRTEEN)
    second = _solve(THIRTEEN)
    # the floor from the database decides it at the root (the same nodes as before)
    assert first == [[THIRTEEN, "14", "1", first[0][3]]] and second[0][:3] == [THIRTEEN, "14", "1"]
    # the first run may have verified it (no stamp yet, or a file changed): the second
    # process finds the stamp and maps the file without reading it whole
    assert len(calls) == 2 and calls[1] is False


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="Linux /proc")
def test_the_solve_command_table_is_not_touched_until_searched():
    lazy_before = _rss_kb()
    class OneShot(Solver):  # as c4tui solve makes it
        PREFAULT = False

    lazy = OneShot(64, book=None)
    lazy_grew = _rss_kb() - lazy_before
    eager_before = _rss_kb()
    eager = Solver(64, book=None)
    eager_grew = _rss_kb() - eager_before
    assert eager_grew > 48 * 1024  # every page of 64 MB touched at allocation
    assert lazy_grew < 8 * 1024  # the pages wait for the probes
    # the same searches: scores, best moves and nodes
    for moves in ("2252576253462244111563365343", "6272366777744", "24464572743613"):
        pos = Position.from_moves(moves)
        a, b = lazy.solve(pos), eager.solve(pos)
        assert (a.score, a.best_move, a.nodes) == (b.score, b.best_move, b.nodes)


def test_the_solver_setup_freezes_what_it_made_and_collects_again():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    assert _solve(THIRTEEN)[0][:2] == [THIRTEEN, "14"]
    # numba's objects are out of the collector's sight, and it collects what comes after
    assert gc.get_freeze_count() > 10_000 and gc.isenabled()
