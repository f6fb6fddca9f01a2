"""The key bar at the bottom: Textual's Footer, without its memory leak.

Textual's ``Footer`` recomposes whenever the screen's bindings change (every prompt opened
or closed, every focus change) and binds each new ``FooterKey`` to its own ``compact``
reactive with ``data_bind``. That binding is a watcher stored on the footer, and Textual
(8.2.8, the newest release) drops the watchers of removed widgets only when ``compact``
itself changes, which never happens here: every key ever shown stayed alive with its
render caches (about 300 KiB per prompt in this app, docs/reliability.md; Textual's issue
#6666). Textual's other leak: ``c4tui/app/textual_leaks.py``.
"""

from __future__ import annotations

from textual.widgets import Footer


class KeyBar(Footer):
    """A ``Footer`` that frees the keys it replaces."""

    async def recompose(self) -> None:
        await super().recompose()
        # setting ``compact`` (to its own value) makes Textual prune the watchers of the
        # closed keys; the live keys just get the same value again
        self.mutate_reactive(Footer.compact)
