"""``Limits``, the one seam of a search's bounds (python-chess's ``Limit``): how the UGI's
``go`` line is written (:func:`format_go`) and read back (:func:`parse_go`)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from c4tui.engine.geometry import SIZE
from c4tui.engine.seam import MAX_NODE_LIMIT, Limits
from c4tui.ugi.limits import MAX_GO_MS, clock_budget, format_go, parse_go


@st.composite
def limits(draw: st.DrawFn) -> Limits:
    """Any :class:`Limits` a ``go`` line can carry (times up to ``go``'s largest)."""
    return Limits(
        nodes=draw(st.none() | st.integers(1, MAX_NODE_LIMIT)),
        depth=draw(st.none() | st.integers(1, SIZE)),
        time=draw(st.none() | st.floats(0, MAX_GO_MS / 1000)),
        infinite=draw(st.booleans()))


@given(limits())
def test_format_go_reads_back_as_the_same_limits(lim: Limits) -> None:
    line = format_go(lim)
    words = line.split()
    assert words[0] == "go"
    back = parse_go(words[1:])
    if lim.time is None or lim.infinite:  # infinite: no clock budget (parse_go's rule)
        assert back == replace(lim, time=None)
    else:  # the receiver keeps its safety margin from the movetime
        ms = round(lim.time * 1000)
        assert back == replace(lim, time=clock_budget({"movetime": ms}, None))


def test_format_go_words() -> None:
    assert format_go(Limits(nodes=20_000, time=None)) == "go nodes 20000"
    assert format_go(Limits(nodes=None, depth=8, time=0.3)) == "go depth 8 movetime 300"
    assert format_go(Limits(nodes=None, infinite=True)) == "go infinite"
    assert format_go(Limits(nodes=None)) == "go"
