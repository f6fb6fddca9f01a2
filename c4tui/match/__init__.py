"""``c4tui match``: two UGI engines play a match, with Elo, an SPRT and game records.

:mod:`.player` drives one engine process (the UGI client, :mod:`c4tui.ugi.engine`), :mod:`.game`
plays and referees one game, :mod:`.adjudicator` ends late games with the exact solver,
:mod:`.openings` reads or makes the openings, :mod:`.runner` plays the games side by side,
:mod:`.tally`, :mod:`.elo` and :mod:`.sprt` count and test, :mod:`.records` writes the
``.c4g`` files and :mod:`.table` prints. The CLI (``c4tui/cli/match.py``) imports this
package; it imports the engine, the book, the gamefile and the UGI client, never the CLI
or the app. See docs/user-guide.md, "Matches".
"""
