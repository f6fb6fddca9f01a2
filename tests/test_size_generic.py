"""Code meant for any board size counts with the process's size, not 7x6's numbers; code
meant for 7x6 alone (BitBully's 12-ply database) says so on another size.

A process has one size (``C4TUI_SIZE``), so each check runs a subprocess; none of them
reaches a numba kernel (a bad value is refused before any search), so they compile
nothing and take a fraction of a second each.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _run(size: str, *argv: str, tmp_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, C4TUI_SIZE=size, C4TUI_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)


@pytest.mark.parametrize("size, openings", [("8x8", 64), ("5x4", 25)])
def test_selfplay_has_width_squared_openings(size, openings, tmp_path) -> None:
    """``selfplay --openings N`` counts the two-ply openings of the board (W x W): 8x8 has
    64 (7x6's 49 refused the last 15), 5x4 25 (26 was taken and 25 games played)."""
    over = _run(size, "-m", "c4tui", "selfplay", "--openings", str(openings + 1),
                tmp_path=tmp_path)
    assert over.returncode == 2, over.stderr
    assert over.stderr == (f"c4tui: selfplay: --openings {openings + 1}: "
                           f"expected 1 to {openings}\n")


def test_the_12_ply_database_refuses_another_board(tmp_path) -> None:
    """Its keys are 7x6's: on 5x4 it was decoded into wrong positions (and a 7x6 cache
    read as 5x4 keys); now one line says why, before any file is read."""
    code = ("from c4tui.book import BookError, db12\n"
            "try:\n    db12.load_db12()\nexcept BookError as e:\n    print(e)\n")
    r = _run("5x4", "-c", code, tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "the 12-ply database is of the 7x6 board, not 5x4\n"
    assert not (tmp_path / "cache").exists()  # nothing converted, nothing cached
