"""``c4tui engine``: the engine behind the UGI protocol, for match runners and other GUIs.

:mod:`c4tui.ugi.protocol` answers the commands, :mod:`c4tui.ugi.jobs` runs the searches,
:mod:`c4tui.ugi.fen` reads and writes positions, :mod:`c4tui.ugi.limits` turns ``go``'s
limits into a time budget. Nothing here depends on the command line or the app:
``python -m c4tui.ugi`` runs the engine too. See docs/protocol.md.
"""

from .fen import START_FEN, FenError, parse_fen, to_fen
from .protocol import UgiEngine, main, run

__all__ = ["FenError", "START_FEN", "UgiEngine", "main", "parse_fen", "run", "to_fen"]
