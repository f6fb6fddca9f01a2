"""Commands registered by this module (being written; see docs/engine-api.md)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
