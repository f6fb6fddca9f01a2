"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def tmp_home(tmp_path, monkeypatch):
    """Games go to a temporary data directory, never the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
