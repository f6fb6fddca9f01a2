"""``python -m c4tui``: same as the ``c4tui`` command."""

from .cli import main

main()
