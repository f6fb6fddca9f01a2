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
