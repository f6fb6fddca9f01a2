"""The ``c4tui`` command line: one command per module, registered by :mod:`.main`.

Dependencies go one way: the CLI imports the app, the book and the engine; nothing
imports the CLI.
"""

from .main import app, main

__all__ = ["app", "main"]
