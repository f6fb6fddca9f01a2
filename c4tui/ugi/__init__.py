"""``c4tui engine``: the engine behind the UGI protocol, for match runners and other GUIs.

:mod:`c4tui.ugi.protocol` answers the commands (``main()`` runs the engine on stdin and
stdout), :mod:`c4tui.ugi.jobs` runs the searches, :mod:`c4tui.ugi.fen` reads and writes
positions, :mod:`c4tui.ugi.limits` turns ``go``'s limits into a time budget, and
:mod:`c4tui.ugi.command` is the thin ``c4tui engine`` wrapper. Nothing here depends on the
command line or the app: ``python -m c4tui.ugi`` runs the engine too. The package imports
nothing itself, so that the CLI can register the command without loading the engine.
See docs/protocol.md.
"""
