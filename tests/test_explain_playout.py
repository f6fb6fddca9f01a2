"""Certificates played as strategies: on small boards, Black follows only what the rules of
a certificate promise (and follow-up on the squares no rule uses) against every White
move to the end of the game; White must never complete a four, and the rules must always
have an answer. A subprocess per size (tests/explain_playout.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYOUT = Path(__file__).with_name("explain_playout.py")


@pytest.mark.parametrize(("size", "n", "lo", "hi"), [
    ("4x4", 60, 2, 10), ("5x4", 40, 4, 14), ("6x4", 40, 4, 16), ("7x4", 25, 6, 18)])
def test_the_rules_hold_when_played(size, n, lo, hi):
    env = {**os.environ, "C4TUI_SIZE": size}
    got = subprocess.run([sys.executable, str(PLAYOUT), str(n), "5", str(lo), str(hi)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert got.returncode == 0, got.stderr[-2000:]
    result = json.loads(got.stdout.splitlines()[-1])
    assert result["certs"] == n and result["skipped"] == 0  # all nine rules are played
    assert result["bad"] == 0, got.stdout[-2000:]  # White completed a four
    assert result["stuck"] == 0, got.stdout[-2000:]  # the rules had no answer
    assert result["ok"] > n  # lines were played
