"""Prints the fuzz cases tried per surface at the end of the session (see fuzzkit)."""

from __future__ import annotations

import json
import os

import pytest
from fuzzkit import CASES, FIGURES, LONG


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print (and optionally write) the cases tried per surface."""
    if not CASES:
        return
    mode = "long" if LONG else "fast"
    terminalreporter.write_line(f"fuzz cases ({mode} run):")
    for surface, n in sorted(CASES.items()):
        terminalreporter.write_line(f"  {surface:<28} {n:>8,}")
    for name, values in sorted(FIGURES.items()):
        terminalreporter.write_line(f"  {name:<28} {len(values)} runs, min {min(values):.3f}, "
                                    f"max {max(values):.3f}")
    out = os.environ.get("C4TUI_FUZZ_REPORT")
    if out:
        with open(out, "w") as fh:
            json.dump({"mode": mode, "cases": dict(sorted(CASES.items())),
                       "figures": FIGURES}, fh, indent=1)
