"""Helpers for Textual pilot tests."""

from __future__ import annotations

import asyncio
import functools


def sync(fn):
    """Run an async pilot test with asyncio (no async pytest plugin needed)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


def screen_text(app) -> str:
    """What the terminal shows (every layer: toasts, the help panel), as plain text lines."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)
