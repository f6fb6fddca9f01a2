"""The Textual analysis workstation (``c4tui`` with no command)."""

from __future__ import annotations

from .main import C4App

__all__ = ["C4App"]
