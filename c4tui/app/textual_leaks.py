"""Work-arounds for what Textual (8.2.8, the newest release) keeps alive for good.

``Footer`` keeps the keys it replaces: see ``widgets/key_bar.py``. And the line renderer
``StylesCache`` memoises ``get_inner_outer`` with ``functools.lru_cache(1024)`` on an
instance method, so the cache's keys hold the ``StylesCache`` of up to 1,024 removed
widgets (every prompt and message toast), each with its rendered lines: about 150 KiB per
game entered in the memory soak, 7 MiB before the cache is full (docs/reliability.md).
"""

from __future__ import annotations

#: Seconds between two clearings of Textual's style cache.
FORGET_EVERY = 30.0


def forget_removed_widgets() -> None:
    """Let the removed widgets' line caches go (the memoised values are two ``Style``
    objects per colour pair, rebuilt on the next draw at no visible cost)."""
    try:
        from textual._styles_cache import StylesCache
    except ImportError:  # a Textual without the module: nothing to do
        return
    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:
        clear()
