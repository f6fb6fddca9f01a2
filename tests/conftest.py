"""Shared fixtures."""

from __future__ import annotations

import os

import platformdirs
import pytest

# The converted 12-ply database is cached per user (a few seconds to build). Pin the cache
# directory before any test changes HOME, so that every test and CLI subprocess of the run
# shares one conversion; tests of the cache itself point C4TUI_CACHE_DIR elsewhere.
os.environ.setdefault("C4TUI_CACHE_DIR", platformdirs.user_cache_dir("c4tui"))


@pytest.fixture(autouse=True)
def _private_state(tmp_path_factory, monkeypatch):
    """Every test gets its own state directory (the recent-files list): never the user's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture
def tmp_home(tmp_path, monkeypatch):
    """Games go to a temporary data directory, never the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture
def no_books(monkeypatch):
    """Every book off (C4TUI_BOOK=none; external engines started by a test inherit it),
    restored afterwards."""
    from c4tui.book import load_default

    monkeypatch.setenv("C4TUI_BOOK", "none")
    load_default(reload=True)
    yield
    monkeypatch.delenv("C4TUI_BOOK")
    load_default(reload=True)
