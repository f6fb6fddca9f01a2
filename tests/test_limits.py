"""``Limits``, the one seam of a search's bounds (python-chess's ``Limit``): how the UGI's
``go`` line is written (:func:`format_go`) and read back (:func:`parse_go`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from c4tui.engine.board.geometry import SIZE
from c4tui.engine.seam import MAX_NODE_LIMIT, Limits
from hypothesis import given
from hypothesis import strategies as st

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


def test_limits_are_unbounded_by_default() -> None:
    """python-chess's ``Limit()``: no bound at all; each front end names its own default."""
    lim = Limits()
    assert (lim.nodes, lim.depth, lim.time, lim.infinite) == (None, None, None, False)
    assert format_go(lim) == "go"


def _commands_with_nodes() -> dict[tuple[str, ...], Any]:
    """Every command (and subcommand) that takes ``--nodes``, as its words."""
    import typer

    from c4tui.cli.main import app

    found: dict[tuple[str, ...], Any] = {}

    def walk(cmd: Any, words: tuple[str, ...]) -> None:
        for p in cmd.params:
            if "--nodes" in p.opts:
                found[words] = p
        for name, sub in getattr(cmd, "commands", {}).items():  # a group's commands
            walk(sub, (*words, name))

    walk(typer.main.get_command(app), ())
    return found


def test_every_command_declares_nodes_once_with_one_bound(capsys) -> None:
    """``--nodes`` is cli/options.py's one declaration: the same help words (0: no limit)
    and the same least value in every command that has it."""
    from c4tui.cli import main
    from c4tui.cli.options import NODES_HELP

    commands = _commands_with_nodes()
    assert {("open",), ("analyze",), ("selfplay",), ("match",), ("bench",)} <= set(commands)
    for words, opt in commands.items():
        assert NODES_HELP in (opt.help or ""), (words, opt.help)
    # the bound, as a user meets it: one line, exit status 2, the same range everywhere
    for argv in (["--nodes", "-1"], ["analyze", "44", "--nodes", "-1"],
                 ["selfplay", "--nodes", "-1"], ["match", "--nodes", "-1"],
                 ["match", "--nodes", "5k/-1"], ["bench", "--accuracy", "--nodes", "-1"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        err = capsys.readouterr().err
        assert (info.value.code, err) == (
            2, "c4tui: --nodes -1: out of range (0 to 1,000,000,000,000)\n"), argv


def test_the_workstation_applies_its_defaults_in_one_place() -> None:
    """Nothing set: the built-in search stops at WORKSTATION_NODES and an external engine
    gets no bound (``go infinite``); a limit the user set (``--nodes``, ``l``) holds for
    both, and ``--nodes 0`` is no limit for both."""
    from c4tui.app.bridge.settings import WORKSTATION_NODES, SearchSettings

    unset = SearchSettings()
    assert unset.search_limits() == Limits(nodes=WORKSTATION_NODES)
    assert unset.search_limits(external=True) == Limits()
    for nodes in (500_000, None):
        user = SearchSettings(limits=Limits(nodes=nodes))
        assert user.search_limits() == user.search_limits(external=True) == Limits(nodes=nodes)
