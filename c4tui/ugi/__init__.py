"""``c4tui engine``: the engine behind the UGI protocol, for match runners and other GUIs.

:mod:`c4tui.ugi.protocol` answers the commands (``main()`` runs the engine on stdin and
stdout), :mod:`c4tui.ugi.jobs` runs the searches, :mod:`c4tui.ugi.fen` reads and writes
positions and :mod:`c4tui.ugi.limits` turns ``go``'s limits into a time budget; the
``c4tui engine`` command itself is the CLI's (:mod:`c4tui.cli.engine`). Nothing here
depends on the command line or the app: ``python -m c4tui.ugi`` runs the engine too. The
package imports nothing itself, so that the CLI can register the command without loading
the engine.
See docs/protocol.md.
"""
