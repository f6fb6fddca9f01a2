"""``python -m c4tui.ugi``: the UGI engine on standard input and output."""

from .protocol import main

main()
