"""The main screen's keys: its bindings, the controller methods they may run, and the
command palette's list of them.

A key names the controller it drives and the method, as Textual's parametrised action
strings do (``search('stop')``, ``tree('goto', (-1, True))``): the screen has one action
per controller (see :class:`~c4tui.app.screens.main.MainScreen`), which runs the named
method if :data:`KEYED` allows it. A method's arguments come in one tuple: Textual passes
an action only as many arguments as its signature names (``*args`` counts as one). The
keys stay on the screen rather than on the panels they act on because they must work
whichever panel has focus (a click on the graph or the log focuses it); the board's own
cursor keys live on the board.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.actions import parse
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from c4tui.engine.board.geometry import COLUMN_NAMES, WIDTH

from ..bridge.live_search import NOT_WITH_EXTERNAL
from ..widgets.board_size import KEY_COLUMNS

#: Only with an external engine (see :meth:`SearchControl.key_state`): space stops, and
#: n N stay in the footer greyed out.
EXTERNAL_BINDINGS: list[BindingType] = [
    Binding("space", "search('external_stop')", "stop"),
    Binding("n", "search('not_external')", "step", show=False),
    Binding("N", "search('not_external')", "step N nodes", show=False),
]

#: Per action of the screen, the controller methods a key may run (a name not here is a
#: bug in a binding: :func:`keyed` refuses it rather than call any attribute).
KEYED: dict[str, frozenset[str]] = {
    "tree": frozenset({"goto", "undo", "redo", "take_back", "switch_variation", "promote",
                       "delete_variation", "comment", "edit_headers"}),
    "search": frozenset({"toggle_pause", "external_stop", "not_external",
                         "step_iteration", "step_nodes", "stop", "analyse", "toggle_auto",
                         "node_limit", "hash_size", "toggle_book", "cycle_multipv"}),
    "files": frozenset({"open", "save", "recent", "games", "enter_moves", "copy",
                        "copy_game", "copy_link", "set_up"}),
    "playing": frozenset({"toggle_mode", "toggle_hints", "versus_key"}),
    "preview": frozenset({"line", "path", "step", "end"}),
    "review": frozenset({"start"}),
}

BINDINGS: list[BindingType] = [
    *[Binding(str(c + 1), f"play({c})", f"play {c + 1}", show=False)
      for c in range(KEY_COLUMNS)],
    Binding("up", "tree('goto', (-1, True))", "previous ply", show=False),
    Binding("down", "tree('goto', (1, True))", "next ply", show=False),
    Binding("home", "tree('goto', (0,))", "first ply", show=False),
    Binding("end", "tree('goto', (99,))", "last ply", show=False),
    Binding("u", "tree('undo')", "undo"),
    Binding("ctrl+r", "tree('redo')", "redo", show=False),
    Binding("t", "toggle_threats", "threats"),
    Binding("F", "flip", f"flip the board (mirror: {COLUMN_NAMES[-1]} on the left)",
            show=False),
    Binding("b", "toggle_best", "best move on the board", show=False),
    Binding("i", "tree('edit_headers')", "game headers (event, players, date)",
            show=False),
    Binding("R", "review('start')", "review game", show=False),
    Binding("space", "search('toggle_pause')", "pause"),
    Binding("n", "search('step_iteration')", "step"),
    *EXTERNAL_BINDINGS,
    Binding("N", "search('step_nodes')", "step N nodes", show=False),
    Binding("x", "search('stop')", "stop", show=False),
    Binding("g", "search('analyse')", "analyse now", show=False),
    Binding("a", "search('toggle_auto')", "auto", show=False),
    Binding("l", "search('node_limit')", "node limit", show=False),
    Binding("H", "search('hash_size')", "hash size", show=False),
    Binding("B", "search('toggle_book')", "books for the search on/off", show=False),
    Binding("m", "search('cycle_multipv')", "search lines 1/2/3/all", show=False),
    Binding("o", "files('open')", "open"),
    Binding("s", "files('save')", "save"),
    Binding("O", "files('recent')", "recent files", show=False),
    Binding("G", "files('games')", "games list", show=False),
    Binding("E", "explorer", "opening explorer", show=False),
    Binding("e", "files('enter_moves')", "enter moves", show=False),
    Binding("c", "files('copy')", "copy", show=False),
    Binding("C", "files('copy_game')", "copy game file", show=False),
    Binding("L", "files('copy_link')", "copy gamesolver.org link", show=False),
    Binding("S", "files('set_up')", "set up a position", show=False),
    Binding("V", "playing('versus_key')", "engine vs engine (pause, resume)", show=False),
    Binding("backspace", "tree('take_back')", "take back last move", show=False),
    Binding("p", "playing('toggle_mode')", "play mode", show=False),
    Binding("h", "playing('toggle_hints')", "hints", show=False),
    Binding("v", "preview('line')", "preview line", show=False),
    Binding("z", "preview('path')", "preview search path", show=False),
    Binding("comma", "preview('step', -1)", "preview back", show=False),
    Binding("full_stop", "preview('step', 1)", "preview forward", show=False),
    Binding("escape", "preview('end')", "end preview", show=False),
    Binding("left_square_bracket", "tree('switch_variation', (-1,))", "previous variation",
            show=False, key_display="["),
    Binding("right_square_bracket", "tree('switch_variation', (1,))", "next variation",
            show=False, key_display="]"),
    Binding("P", "tree('promote')", "promote variation", show=False),
    Binding("D", "tree('delete_variation')", "delete variation", show=False),
    Binding("semicolon", "tree('comment')", "comment move", show=False, key_display=";"),
    Binding("T", "trainer", "puzzle trainer", show=False),
]


def keyed(action: str, name: object) -> str:
    """``name`` if a key of ``action`` may run that controller method; else ValueError."""
    if not isinstance(name, str) or name not in KEYED[action]:
        raise ValueError(f"no key runs {action}({name!r})")
    return name


def search_method(action: str, parameters: tuple[object, ...]) -> str | None:
    """The search controller's method an action runs (None: not a search key), for
    :meth:`SearchControl.key_state`."""
    return str(parameters[0]) if action == "search" and parameters else None


#: The app's actions that Textual's own palette entries already offer (Quit, Keys).
TEXTUAL_LISTS = frozenset({"quit", "toggle_keys"})


def commands(screen: DOMNode, board: DOMNode) -> Iterator[SystemCommand]:
    """The command palette's entries: a key of the board, the screen or the app each (the
    column keys not listed: one per column can be typed; the app's quit and keys are
    Textual's own entries), with the engine's say."""
    seen = set(TEXTUAL_LISTS)
    for node in (board, screen, screen.app):
        for b in node.BINDINGS:
            assert isinstance(b, Binding)
            title = _key_help(screen, b)  # None: not with this engine
            if b.action.startswith("play(") or b.action in seen or title is None:
                continue
            seen.add(b.action)
            yield SystemCommand(title, f"key: {b.key_display or b.key}",
                                partial(screen.app.run_action, b.action, node))
    for c in range(WIDTH):
        yield SystemCommand(f"Play column {c + 1}", f"key: {c + 1}",
                            partial(screen.app.run_action, f"play({c})", screen),
                            discover=False)


def _key_help(screen: DOMNode, binding: Binding) -> str | None:
    """A key's title in the command palette; None: not listed (it does not apply)."""
    _, action, parameters = parse(binding.action)
    state = screen.check_action(action, parameters)
    if state is False or binding.action == "search('not_external')":
        return None
    title = binding.description[:1].upper() + binding.description[1:]
    return title if state else f"{title} ({NOT_WITH_EXTERNAL})"
