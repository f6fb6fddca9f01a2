"""The option vocabulary shared by the commands (one name, one check per concept)."""

from __future__ import annotations

import os

from .errors import fail


def default_threads() -> int:
    """All cores of this machine."""
    return max(1, os.cpu_count() or 1)


def check_threads(threads: int) -> None:
    """One-line error for an absurd ``--threads``."""
    if not 1 <= threads <= 64:
        fail(f"--threads {threads}: must be between 1 and 64")
