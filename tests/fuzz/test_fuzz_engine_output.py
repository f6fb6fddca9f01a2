"""Fuzzing what an engine prints (issue 33, part 2): random lines full of escape sequences,
control, bidi and format characters, and over-long words, read by the UGI client as the
app's external engine (``--engine``) and as a match's player read them.

Wanted: no character a terminal could act on reaches the screen (the app's status line,
as drawn) or stdout/stderr (the match's heading, game lines and errors); every text kept
or shown is bounded; what the client keeps does not grow with what the engine invents
(new first words, new option names). ``make test`` tries a few dozen deterministic cases;
``make fuzz`` at least 10,000.
"""

from __future__ import annotations

import io

from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st

from c4tui.app.bridge.engine_view import EngineState, EngineView
from c4tui.app.bridge.external_search import ExternalSearch
from c4tui.app.bridge.settings import SearchSettings
from c4tui.app.widgets.status_line import StatusLine
from c4tui.match.game import CRASH, GameRecord
from c4tui.match.openings import Opening
from c4tui.match.player import EngineSpec, Player
from c4tui.match.runner import MatchState
from c4tui.match.table import Output
from c4tui.match.tally import Tally
from c4tui.ugi.client import ANSWERS, EngineGone
from c4tui.ugi.engine import Engine


def raw(text: str) -> list[str]:
    """The characters of ``text`` a terminal could act on (line ends aside): those
    ``str.isprintable`` refuses (controls, ESC, bidi and other format characters)."""
    return [ch for ch in text if ch != "\n" and not ch.isprintable()]


#: The longest text the client keeps of one thing the engine said (a name: 30, a note or
#: an error: 200, with the words around it).
SHORT = 300

ESCAPES = ["\x1b[2J", "\x1b]0;pwned\x07", "\x1b[31m", "\u202e", "\u2066", "\x00", "\x07",
           "\x9b", "\r", "\x0b", "\u2028", "\ufeff", "\x1bP", "\x1b[10A", "[bold]x[/]"]
piece = st.one_of(st.sampled_from(ESCAPES), st.text(max_size=8),
                  st.integers(1, 5000).map(lambda n: "z" * n))
#: The start of a line: what the client reads specially, or anything.
first = st.one_of(st.sampled_from(["id name", "option name", "info string", "info string "
                                   "error", "info depth", "info score cp", "bestmove",
                                   "response", "readyok", "info pv", "option name Hash "
                                   "type spin default"]), st.text(min_size=1, max_size=6))
line = st.builds(lambda a, rest: (a + " " + "".join(rest)).strip(), first,
                 st.lists(piece, max_size=6)).filter(lambda x: bool(x.split()))


def _feed(client: Engine, lines: list[str]) -> None:
    for text in lines:
        client._line(text)


def assert_shown(text: str, bound: int = SHORT) -> None:
    assert not raw(text), raw(text)[:5]
    assert len(text) <= bound, len(text)


@fuzz(fast=60)
@given(st.lists(line, min_size=1, max_size=12))
def test_the_status_line_shows_an_external_engines_words_escaped(lines):
    """Its name and notes on the app's status line, as drawn."""
    count("engine output: the app's status line", len(lines))
    ext = ExternalSearch(["hostile"])
    _feed(ext.engine, lines)
    status = ext.status()
    assert_shown(status.name, 30)
    assert_shown(status.message)
    ext.engine.ready = True
    widget = StatusLine()
    widget.view = EngineView(EngineState.READY, SearchSettings(), external=status)
    drawn = widget.render().plain
    assert not raw(drawn), raw(drawn)[:5]
    ext.engine.fail("it went away")  # the failure line names it
    widget.view = EngineView(EngineState.READY, SearchSettings(), external=ext.status())
    assert not raw(widget.render().plain)
    assert len(ext.engine._seen) <= len(ANSWERS)  # only the answers are counted


@fuzz(fast=60)
@given(st.lists(line, min_size=1, max_size=12), st.sampled_from(["", "Hash", "Seed"]))
def test_match_output_and_errors_show_an_engines_words_escaped(lines, option):
    """A player's name in the heading and the game lines, its refusal as the error."""
    count("engine output: match stdout and stderr", len(lines))
    player = Player(EngineSpec(("hostile",), {option: "1"} if option else {}), "B")
    _feed(player, lines)
    assert len(player._declared) <= 1 and len(player._seen) <= len(ANSWERS)
    assert_shown(player.name, 30)
    assert_shown(player._refused)
    with player._cond:
        player._asking = None
    why = EngineGone(player._refused or "exited (code 3)")
    record = GameRecord(3, 1, Opening((3,)), "A", (3, 3), 0, CRASH,
                        f"B ({player.name}) as Black lost: {why}")
    out = io.StringIO()
    names = {"A": "c4tui", "B": player.name}
    view = Output("plain", names, None, out)
    view.begin(f"A: c4tui  vs  B: {player.name}")
    tally = Tally()
    tally.add(1, 1.0)
    view.game(record, MatchState(1, 2, tally))
    view.finish(MatchState(1, 2, tally), 1.0)
    text = out.getvalue()
    assert not raw(text), raw(text)[:5]
    assert max(len(x) for x in text.splitlines()) < 2 * SHORT
