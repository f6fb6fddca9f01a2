"""Readers for the scored test data in tests/data (see its README)."""

from __future__ import annotations

import random
from pathlib import Path

DATA = Path(__file__).parent / "data"


def load_positions() -> list[tuple[str, int, list[int | None]]]:
    """positions.txt: (moves, score, column scores with None for a full column)."""
    rows = []
    for line in (DATA / "positions.txt").read_text().splitlines():
        f = line.split()
        rows.append((f[0], int(f[1]), [None if x == "x" else int(x) for x in f[2:]]))
    return rows


def load_pons(name: str) -> list[tuple[str, int]]:
    """A Pons benchmark set: (moves, score) per line."""
    return [
        (m, int(s))
        for m, s in (ln.split() for ln in (DATA / "pons" / name).read_text().splitlines())
    ]


def sample(rows: list, n: int, seed: int) -> list:
    """A reproducible sample of at most ``n`` rows."""
    return random.Random(seed).sample(rows, min(n, len(rows)))
