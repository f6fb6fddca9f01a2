"""The import graph of c4tui/, engine/ and book/ (docs/architecture.md), read from the source.

Every ``import`` statement is an arrow, wherever it stands: at module level, inside a
function (a lazy import still ties the two modules together) or under ``TYPE_CHECKING`` (a
type's name is still knowledge of the other module). ``engine/`` and ``book/`` are named as
installed, ``c4tui.engine`` and ``c4tui.book``. The rules: no import circles; the engine
imports nothing of the front ends, the book nor Textual; the book nothing of the front
ends; nothing imports the command line but ``python -m c4tui`` (and the ``c4tui`` script,
which is not a module); the app nothing of the command line or of the UGI command.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Source folder -> the package it installs as (pyproject.toml's package-dir).
PACKAGES = {"c4tui": "c4tui", "engine": "c4tui.engine", "book": "c4tui.book"}
#: Modules that may import the command line: ``python -m c4tui``.
CLI_IMPORTERS = {"c4tui.__main__"}


def _module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = [PACKAGES[folder], *rest]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _sources() -> dict[str, Path]:
    """Module name -> file, for every module of the three source folders."""
    found: dict[str, Path] = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[_module_name(path)] = path
    return found


def _imports(module: str, path: Path) -> set[str]:
    """What ``module`` imports (every name, ours or not), as absolute module names: a
    ``from package import name`` names the submodule when ``name`` is one."""
    is_package = path.name == "__init__.py"
    modules = _sources()
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in modules else target)
    return out


@cache
def _graph() -> dict[str, set[str]]:
    """Module -> the modules it imports, all of them (ours and third-party)."""
    return {module: _imports(module, path) for module, path in _sources().items()}


def _ours(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph restricted to our own modules (the edges between them)."""
    return {m: {t for t in targets if t in graph and t != m} for m, targets in graph.items()}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _arrows(source: str, forbidden: tuple[str, ...],
            allowed: tuple[str, ...] = ()) -> list[str]:
    """``a -> b`` for every import by a module of ``source`` of a module in ``forbidden``
    that is not in ``allowed``. Every name of ours must be a module or package that
    exists: a rule about a module that does not could never fail."""
    ours = _graph().keys()
    for name in (source, *forbidden, *allowed):
        assert not name.startswith("c4tui") or any(_within(m, name) for m in ours), \
            f"no module {name}: the rule is stale"
    return sorted(f"{m} -> {t}" for m, targets in _graph().items() if _within(m, source)
                  for t in targets
                  if any(_within(t, f) for f in forbidden)
                  and not any(_within(t, a) for a in allowed))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component with more than one module (Tarjan),
    written as a path that comes back to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the module count (~200)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    circles: list[list[str]] = []
    for component in components:
        seen: set[str] = set()
        for start in component:  # every module of a knot is on at least one circle shown
            if start not in seen:
                circles.append(_circle(graph, set(component), start))
                seen.update(circles[-1])
    return circles


def _circle(graph: dict[str, set[str]], component: set[str], start: str) -> list[str]:
    """A shortest path from ``start`` back to itself within its component (breadth first)."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if v != start else [start, start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no circle through {start}")  # a component always has one


def test_the_graph_sees_every_kind_of_import() -> None:
    """The reader itself: module-level, lazy and relative imports are all arrows."""
    graph = _graph()
    assert "c4tui.cli.main" in graph["c4tui.cli"]  # from .main import app, main
    assert "c4tui.engine.board.geometry" in graph["c4tui.cli.size"]  # inside a function
    assert "numba" in graph["c4tui.engine.solver.solver_kernel"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_import_circles() -> None:
    cycles = _cycles(_ours(_graph()))
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_engine_imports_no_front_end_book_or_textual() -> None:
    wrong = _arrows("c4tui.engine", ("c4tui", "textual", "rich"), allowed=("c4tui.engine",))
    assert not wrong, "the engine reaches up:\n" + "\n".join(wrong)


def test_the_book_imports_no_front_end() -> None:
    wrong = _arrows("c4tui.book", ("c4tui.app", "c4tui.cli", "c4tui.ugi", "c4tui.serve",
                                   "textual"))
    assert not wrong, "the book reaches up:\n" + "\n".join(wrong)


def test_nothing_imports_the_command_line() -> None:
    wrong = sorted(f"{m} -> {t}" for m, targets in _graph().items()
                   if not _within(m, "c4tui.cli") and m not in CLI_IMPORTERS
                   for t in targets if _within(t, "c4tui.cli"))
    assert not wrong, "imports of the command line:\n" + "\n".join(wrong)


def test_the_apps_engine_plumbing_and_session_import_no_textual() -> None:
    """``c4tui.app.bridge`` and ``c4tui.app.session`` (and ``c4tui.report``, shared with
    the command line) are the app's Textual-free layers: they import neither Textual nor
    the app's Textual code above them (main, render, controllers, screens, widgets)."""
    upper = ("textual", "c4tui.app.main", "c4tui.app.render", "c4tui.app.messages",
             "c4tui.app.controllers", "c4tui.app.screens", "c4tui.app.widgets")
    wrong = [arrow for room in ("c4tui.app.bridge", "c4tui.app.session", "c4tui.report")
             for arrow in _arrows(room, upper)]
    assert not wrong, "a Textual-free layer reaches up:\n" + "\n".join(wrong)
    assert not _arrows("c4tui.report", ("c4tui.app",)), "report imports the app"


def test_the_app_imports_no_command_line_or_serve() -> None:
    wrong = _arrows("c4tui.app", ("c4tui.cli", "c4tui.serve"))
    assert not wrong, "the app reaches the command line:\n" + "\n".join(wrong)


#: The most lines of one file of the app and of the command line (issue 34: a larger one
#: holds more than one thing; split it along its seams).
MOST_LINES = 300
#: The most ``action_`` methods of the main screen: it holds the layout, and a key names
#: the controller method it runs (screens/main_keys.py), not a forwarder each.
MOST_MAIN_ACTIONS = 15


def test_no_file_of_the_app_or_the_command_line_is_over_300_lines() -> None:
    long = sorted(f"{path.relative_to(ROOT)}: {n} lines"
                  for folder in ("c4tui/app", "c4tui/cli")
                  for path in (ROOT / folder).rglob("*.py")
                  if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES)
    assert not long, f"over {MOST_LINES} lines:\n" + "\n".join(long)


def test_the_main_screen_holds_layout_not_a_forwarder_per_key() -> None:
    from c4tui.app.screens.main import MainScreen

    actions = sorted(name for name in vars(MainScreen) if name.startswith("action_"))
    assert len(actions) <= MOST_MAIN_ACTIONS, f"{len(actions)} actions: {actions}"


def test_every_main_screen_key_runs_a_method_its_controller_has() -> None:
    """A key names its controller's method (screens/main_keys.py): a name misspelt, not
    allowed or missing on the controller would be a key that does nothing but raise."""
    import pytest
    from textual.actions import parse

    from c4tui.app.controllers import (
        FileControl,
        PlayControl,
        PreviewControl,
        ReviewControl,
        SearchControl,
        TreeControl,
    )
    from c4tui.app.screens.main import MainScreen
    from c4tui.app.screens.main_keys import KEYED, keyed

    controllers = {"tree": TreeControl, "search": SearchControl, "files": FileControl,
                   "playing": PlayControl, "preview": PreviewControl,
                   "review": ReviewControl}
    assert set(controllers) == set(KEYED)
    for binding in MainScreen.BINDINGS:
        _, action, params = parse(binding.action)  # type: ignore[union-attr]
        assert callable(getattr(MainScreen, f"action_{action}", None)), binding
        if action in KEYED:
            assert callable(getattr(controllers[action], keyed(action, params[0]))), binding
    with pytest.raises(ValueError, match="no key runs search"):
        keyed("search", "bridge")  # an attribute, not a key's method
