"""The analysis workstation: a Textual app around a GameModel and an EngineBridge."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Label, Static

from c4tui import gamefile
from c4tui.engine.geometry import WIDTH
from c4tui.engine.position import PLAYER_NAMES, IllegalMoveError, Position

from . import analysis as an
from .analysis import parse_count
from .engine_bridge import (
    COMPILING,
    FAILED,
    LOADING,
    NOT_AVAILABLE,
    EngineBridge,
    EngineView,
    SearchSettings,
)
from .model import GameModel
from .widgets import PLAYER_STYLE, BoardView, EvalGraph, MoveList

MAX_NODE_LIMIT = 10**12
MAX_HASH_MB = 4096


class PromptScreen(ModalScreen[str | None]):
    """A one-line question: returns the text typed, or None on escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text, self.value, self.placeholder = title, value, placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Label(self.title_text, id="prompt-title")
            yield Input(value=self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("enter: ok   escape: cancel", id="prompt-help")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class C4App(App[None]):
    """Connect Four analysis workstation."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: works for subclasses too
    TITLE = "c4tui"

    BINDINGS = [
        *[Binding(str(c + 1), f"play({c})", f"play {c + 1}", show=False) for c in range(WIDTH)],
        Binding("left", "cursor(-1)", "cursor left", show=False),
        Binding("right", "cursor(1)", "cursor right", show=False),
        Binding("enter", "play_cursor", "play cursor column", show=False),
        Binding("up", "back", "previous ply", show=False),
        Binding("down", "forward", "next ply", show=False),
        Binding("home", "start", "first ply", show=False),
        Binding("end", "end", "last ply", show=False),
        Binding("u", "undo", "undo"),
        Binding("ctrl+r", "redo", "redo", show=False),
        Binding("t", "toggle_threats", "threats"),
        Binding("space", "toggle_pause", "pause"),
        Binding("n", "step_iteration", "step"),
        Binding("N", "step_nodes", "step N nodes", show=False),
        Binding("x", "stop", "stop", show=False),
        Binding("g", "analyse", "analyse now", show=False),
        Binding("a", "toggle_auto", "auto", show=False),
        Binding("l", "node_limit", "node limit", show=False),
        Binding("H", "hash_size", "hash size", show=False),
        Binding("o", "load", "open"),
        Binding("s", "save", "save"),
        Binding("e", "enter_moves", "enter moves", show=False),
        Binding("c", "copy", "copy", show=False),
        Binding("C", "copy_game", "copy game file", show=False),
        Binding("backspace", "take_back", "take back last move", show=False),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        position: Position | None = None,
        *,
        settings: SearchSettings | None = None,
        engine: bool = True,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.model = GameModel.from_position(position or Position())
        self.settings = settings or SearchSettings()
        self.bridge = EngineBridge(self.settings, spawn=self._spawn, enable=engine)
        self.headers: dict[str, str] = dict(headers or {})
        self.last_message = ""
        self.last_error = ""
        self._evals: dict[int, float] = {}  # position key -> White's view in [-1, 1]
        self._log_sig: tuple = ()
        self._path_sig: tuple = ()
        self._view: EngineView | None = None
        self._main_screen: Screen | None = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardView(id="board")
                yield Static(id="threat-info")
                with Vertical(id="moves-box"):
                    yield MoveList(id="moves")
            with Vertical(id="right"):
                with Vertical(id="analysis-box"):
                    yield Static(id="analysis")
                    yield EvalGraph(id="graph")
                yield DataTable(id="log", zebra_stripes=True, cursor_type="none")
                yield DataTable(id="path", cursor_type="none")
        yield Static(id="status")
        yield Footer()

    def _w(self, selector, expect_type=None):  # noqa: ANN001, ANN202 - like query_one
        """A widget of the main screen (even while a prompt is on top)."""
        screen = self._main_screen if self._main_screen is not None else self.screen
        if expect_type is None:
            return screen.query_one(selector)
        return screen.query_one(selector, expect_type)

    def on_mount(self) -> None:
        self._main_screen = self.screen
        self._w("#board").border_title = "board"
        self._w("#threat-info").border_title = "threats"
        self._w("#moves-box").border_title = "moves"
        self._w("#analysis-box").border_title = "analysis"
        log = self._w("#log", DataTable)
        log.border_title = "search log"
        log.add_columns("d", "window", "re", "score", "nodes", "n/s", "hit", "fill", "time", "pv")
        path = self._w("#path", DataTable)
        path.border_title = "search path (paused)"
        path.add_columns("ply", "move", "alpha", "beta", "idx")
        path.display = False
        self._w("#threat-info").display = False
        self._w("#board").focus()
        self._position_changed()
        # load the engine after the first frame: its imports compete for the GIL
        self.call_after_refresh(self.bridge.start)
        self.set_interval(0.25, self._poll_engine)

    def on_resize(self, event) -> None:  # noqa: ANN001 - events.Resize
        """Large terminals get a large board (and a wider left column)."""
        big = event.size.width >= 110 and event.size.height >= 36
        board = self._w("#board", BoardView)
        if board.big != big:
            board.big = big
            self._w("#left").set_class(big, "-big")
            board.set_class(big, "-big")

    def on_unmount(self) -> None:
        self.bridge.shutdown()

    def _spawn(self, fn, name: str):  # noqa: ANN001 - Spawn protocol of EngineBridge
        """Start an engine thread as a Textual worker (from any thread)."""
        kwargs = {"name": name, "group": "engine", "thread": True, "exit_on_error": False}
        if threading.get_ident() == self._thread_id:
            return self.run_worker(fn, **kwargs)
        return self.call_from_thread(self.run_worker, fn, **kwargs)

    # ------------------------------------------------------------------ commands
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        seen = set()
        for b in self.BINDINGS:
            assert isinstance(b, Binding)
            if b.action in ("command_palette", "quit") or b.action.startswith("play("):
                continue
            if b.action in seen:
                continue
            seen.add(b.action)
            key = b.key_display or b.key
            yield SystemCommand(
                b.description[:1].upper() + b.description[1:],
                f"key: {key}",
                partial(self.run_action, b.action),
            )
        for c in range(WIDTH):
            yield SystemCommand(f"Play column {c + 1}", f"key: {c + 1}",
                                partial(self.run_action, f"play({c})"), discover=False)

    # ------------------------------------------------------------------ messages
    def say(self, text: str) -> None:
        self.last_message = text
        self.notify(text, timeout=3)

    def error(self, text: str) -> None:
        """Show a one-line error; nothing has changed."""
        self.last_error = text
        self.bell()
        self.notify(text, severity="error", timeout=6)

    # ------------------------------------------------------------------ state
    @property
    def position(self) -> Position:
        return self.model.position()

    def _position_changed(self) -> None:
        """Redraw everything that depends on the viewed ply and tell the engine."""
        pos = self.position
        self.bridge.set_position(pos)
        self._log_sig = ()
        self._refresh_board(pos)
        self._w("#moves", MoveList).show(self.model.line, self.model.ply)
        self._refresh_threats(pos)
        self._refresh_engine(self.bridge.view(pos))

    def _refresh_board(self, pos: Position, view: EngineView | None = None) -> None:
        values: list[an.ColumnValue | None] = [None] * WIDTH
        exact = view.exact if view else self.bridge.exact_for(pos)
        if exact is not None and exact.status == "done" and exact.scores:
            values = an.exact_values(exact.scores, pos.ply)
        elif view is not None and view.columns:
            for col, (score, band) in view.columns.items():
                values[col] = an.search_value(score, band, pos.ply)
        elif exact is not None and exact.status == "solving" and not pos.is_over:
            pending = an.ColumnValue("…", "solving", "dim")
            values = [pending if pos.can_play(c) else None for c in range(WIDTH)]
        self._w("#board", BoardView).set_state(pos, values)

    def _refresh_threats(self, pos: Position) -> None:
        box = self._w("#threat-info", Static)
        if not box.display:
            return
        text = Text()
        for i, line in enumerate(an.threat_summary(pos)):
            name, _, rest = line.partition(": ")
            text.append(f"{name:5} ", style=PLAYER_STYLE[i])
            text.append(rest + "\n")
        text.append("o odd e even CAPS acute x both\n", style="dim")
        text.append("no new threats → ", style="bold")
        text.append(self._verdict(pos))
        box.update(text)

    def _verdict(self, pos: Position) -> str:
        over = an.game_over_text(pos)
        if over:
            return over
        view = self._view
        if view is not None and view.verdict is not None:
            return an.milton_verdict(pos, *view.verdict)
        if view is not None and view.state in (LOADING, COMPILING):
            return f"waiting for the engine ({view.state})"
        return "needs the engine's evaluation (not available)"

    # ------------------------------------------------------------------ engine view
    def _poll_engine(self) -> None:
        self.bridge.tick()
        if not self.is_running:
            return
        self._refresh_engine(self.bridge.view(self.position))

    def _refresh_engine(self, view: EngineView) -> None:
        self._view = view
        pos = self.position
        exact = view.exact
        if exact is not None and exact.status == "done" and exact.scores:
            best = exact.best
            if best is not None:
                self._evals[pos.key()] = an.white_view_exact(best, pos)
        snap = view.snapshot if view.search_key == pos.key() else None
        if pos.key() not in self._evals and snap is not None and snap.iterations:
            last = snap.iterations[-1]
            if snap.state in ("done", "node_limit") or last.band != "heuristic":
                v = an.white_view_search(snap.score, snap.band, pos)
                if v is not None:
                    self._evals[pos.key()] = v
        self._refresh_board(pos, view)
        self._refresh_analysis(pos, view)
        self._refresh_graph()
        self._refresh_status(pos, view)
        self._refresh_log(pos, snap)
        self._refresh_path(pos, view if snap is not None else None)
        if self._w("#threat-info").display:
            self._refresh_threats(pos)

    def _refresh_analysis(self, pos: Position, view: EngineView) -> None:
        t = Text(no_wrap=True, overflow="ellipsis")
        over = an.game_over_text(pos)
        t.append("result  " if over else "to move ", style="dim")
        if over:
            t.append(over, style="bold")
            t.append(f"  ply {pos.ply}", style="dim")
        else:
            t.append(PLAYER_NAMES[pos.to_move], style=PLAYER_STYLE[pos.to_move])
            t.append(f"  ply {pos.ply}", style="dim")
        t.append("\n")
        exact = view.exact
        t.append("exact   ", style="dim")
        if over:
            t.append("-")
        elif exact is None:
            t.append(self._engine_unavailable_text(view, "solver"), style="dim")
        elif exact.status == "solving":
            t.append("solving…", style="italic")
        elif exact.status == "done":
            best = exact.best
            cols = [i for i, s in enumerate(exact.scores or ()) if s is not None and s == best]
            t.append(an.exact_verdict(best, pos), style="bold")
            names = " ".join("abcdefg"[c] for c in cols)
            t.append(f"  best {names}", style="dim")
        else:
            t.append(f"{exact.status}: {exact.message}", style="dim")
        t.append("\n")
        t.append("search  ", style="dim")
        snap = view.snapshot
        if over:
            t.append("-")
        elif snap is None or view.search_key != pos.key():
            if view.search_available and not view.settings.auto:
                t.append("auto-analysis off (g: analyse)", style="dim")
            else:
                t.append(self._engine_unavailable_text(view, "search"), style="dim")
        else:
            t.append_text(self._search_line(pos, snap))
        self._w("#analysis", Static).update(t)

    def _engine_unavailable_text(self, view: EngineView, part: str) -> str:
        if view.state == NOT_AVAILABLE:
            return "engine not available"
        if view.state in (LOADING, COMPILING):
            return f"{view.state}…"
        if view.state == FAILED:
            return view.message
        if part == "solver" and not view.solver_available:
            return "solver not available"
        if part == "search" and not view.search_available:
            return "analysis search not available yet"
        return "waiting…"

    def _search_line(self, pos: Position, snap) -> Text:  # noqa: ANN001 - engine Snapshot
        t = Text()
        iters = snap.iterations or ()
        if snap.score is None:
            t.append(f"{snap.state}, depth {snap.depth}…", style="italic")
            return t
        t.append(an.search_summary(snap.score, snap.band, pos), style="bold")
        depth = iters[-1].depth if iters else snap.depth
        t.append(f"  d{depth}", style="dim")
        if snap.best_move is not None and snap.best_move >= 0:
            t.append(f"  best {'abcdefg'[snap.best_move]}", style="dim")
        pv = snap.result.pv if snap.result is not None else (iters[-1].pv if iters else ())
        pv_s = an.pv_text(pos, pv)
        if pv_s:
            t.append(f"\npv      {pv_s}", style="dim")
        return t

    def _refresh_log(self, pos: Position, snap) -> None:  # noqa: ANN001 - engine Snapshot
        table = self._w("#log", DataTable)
        if snap is None:
            if self._log_sig != ("empty",):
                table.clear()
                self._log_sig = ("empty",)
            return
        its = snap.iterations or ()
        running = snap.state in ("searching", "paused")
        sig = (pos.key(), len(its), snap.state, snap.nodes if running else None)
        if sig == self._log_sig:
            return
        self._log_sig = sig
        table.clear()
        for it in its:
            table.add_row(
                str(it.depth),
                an.window_text(it.alpha, it.beta),
                f"{it.fail_highs}/{it.fail_lows}",
                an.short_score(it.score, it.band, pos.ply),
                an.human_count(it.nodes),
                an.human_count(it.nps),
                f"{it.hit_rate * 100:.0f}%",
                f"{float(it.tt_fill) * 100:.0f}%",
                an.human_time(it.elapsed),
                an.pv_text(pos, it.pv),
            )
        if running:
            done_nodes = its[-1].total_nodes if its else 0
            label = "paused" if snap.state == "paused" else "running"
            table.add_row(
                Text(str(snap.depth), style="bold yellow"),
                Text(label, style="bold yellow"),
                "", "",
                an.human_count(max(0, snap.nodes - done_nodes)),
                "", "", "", "", "",
            )
        self.call_after_refresh(table.scroll_end, animate=False)

    def _refresh_path(self, pos: Position, view: EngineView | None) -> None:
        table = self._w("#path", DataTable)
        path = view.path if view is not None else ()
        show = bool(path)
        sig = (pos.key(), path)
        if table.display != show:
            table.display = show
        if not show or sig == self._path_sig:
            return
        self._path_sig = sig
        table.clear()
        p = pos.copy()
        for e in path:
            move = "·"
            if 0 <= e.move < WIDTH and p.can_play(e.move) and not p.is_over:
                move = f"{'abcdefg'[e.move]}{p.height(e.move) + 1}"
                p.play(e.move)
            elif e.move < 0:
                move = "(here)"
            table.add_row(str(e.ply), move, an.bound_text(e.alpha), an.bound_text(e.beta),
                          str(e.index))

    def _refresh_graph(self) -> None:
        line_pos = Position()
        values: list[float | None] = [self._evals.get(line_pos.key())]
        for col in self.model.line:
            line_pos.play(col)
            if line_pos.is_over:
                w = line_pos.winner
                values.append(0.0 if w is None else (1.0 if w == 0 else -1.0))
            else:
                values.append(self._evals.get(line_pos.key()))
        self._w("#graph", EvalGraph).show(values, self.model.ply)

    def _refresh_status(self, pos: Position, view: EngineView) -> None:
        t = Text(no_wrap=True, overflow="ellipsis")
        state = view.state
        snap = view.snapshot if view.search_key == pos.key() else None
        if state == "ready":
            state = snap.state if snap is not None else "idle"
            if state == "node_limit":
                state = "node limit reached"
        style = {
            "searching": "bold green",
            "paused": "bold yellow",
            COMPILING: "bold yellow",
            LOADING: "bold yellow",
            NOT_AVAILABLE: "dim",
            FAILED: "bold red",
            "node limit reached": "bold magenta",
        }.get(state, "bold")
        t.append(" ● ", style=style)
        t.append(state, style=style)
        if snap is not None:
            t.append(f"  d{snap.depth}  {an.human_count(snap.nodes)} nodes"
                     f"  {an.human_count(snap.nps)}/s  {an.human_time(snap.elapsed)}")
        s = view.settings
        t.append(f"  │ limit {an.human_count(s.node_limit)}  hash {s.hash_mb}M"
                 f"  auto {'on' if s.auto else 'off'}", style="dim")
        if view.message and state not in (FAILED,):
            t.append(f"  │ {view.message}", style="dim")
        self._w("#status", Static).update(t)

    # ------------------------------------------------------------------ actions: play
    def action_play(self, col: int) -> None:
        try:
            self.model.play(col)
        except IllegalMoveError as exc:
            self.error(str(exc))
            return
        self._w("#board", BoardView).cursor = col
        self._position_changed()

    def action_cursor(self, delta: int) -> None:
        board = self._w("#board", BoardView)
        board.cursor = (board.cursor + delta) % WIDTH

    def action_play_cursor(self) -> None:
        self.action_play(self._w("#board", BoardView).cursor)

    @on(BoardView.ColumnClicked)
    def _clicked(self, event: BoardView.ColumnClicked) -> None:
        self.action_play(event.col)

    def action_undo(self) -> None:
        if self.model.undo():
            self._position_changed()
        else:
            self.error("undo: nothing to undo")

    def action_redo(self) -> None:
        if self.model.redo():
            self._position_changed()
        else:
            self.error("redo: nothing to redo")

    def action_take_back(self) -> None:
        try:
            self.model.take_back()
        except IllegalMoveError as exc:
            self.error(str(exc))
            return
        self._position_changed()

    # ------------------------------------------------------------------ navigation
    def action_back(self) -> None:
        self.action_goto_ply(self.model.ply - 1)

    def action_forward(self) -> None:
        self.action_goto_ply(self.model.ply + 1)

    def action_start(self) -> None:
        self.action_goto_ply(0)

    def action_end(self) -> None:
        self.action_goto_ply(len(self.model.line))

    def action_goto_ply(self, ply: int) -> None:
        before = self.model.ply
        self.model.goto(ply)
        if self.model.ply != before:
            self._position_changed()

    # ------------------------------------------------------------------ view toggles
    def action_toggle_threats(self) -> None:
        board = self._w("#board", BoardView)
        board.show_threats = not board.show_threats
        info = self._w("#threat-info", Static)
        info.display = board.show_threats
        self._refresh_threats(self.position)

    # ------------------------------------------------------------------ search control
    def _need_search(self) -> bool:
        view = self.bridge.view(self.position)
        if not view.search_available:
            self.error("search: the analysis search is not available "
                       f"({view.state})")
            return False
        return True

    def action_toggle_pause(self) -> None:
        if self._need_search():
            self.bridge.command("toggle")

    def action_stop(self) -> None:
        if self._need_search():
            self.bridge.command("stop")

    def action_step_iteration(self) -> None:
        if self._need_search():
            self.bridge.command("step_iteration")

    def action_analyse(self) -> None:
        if self._need_search():
            self.bridge.set_position(self.position, force_search=True)

    def action_toggle_auto(self) -> None:
        self.settings.auto = not self.settings.auto
        self.say(f"auto-analysis {'on' if self.settings.auto else 'off'}")
        if self.settings.auto:
            self.bridge.set_position(self.position)
        self._refresh_engine(self.bridge.view(self.position))

    def action_step_nodes(self) -> None:
        if not self._need_search():
            return

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                n = parse_count(text, "step nodes", 1, MAX_NODE_LIMIT)
            except ValueError as exc:
                self.error(str(exc))
                return
            self.bridge.command("step_nodes", n)

        self.push_screen(PromptScreen("Step how many nodes?", "10000"), done)

    def action_node_limit(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                n = parse_count(text, "node limit", 1, MAX_NODE_LIMIT)
            except ValueError as exc:
                self.error(str(exc))
                return
            self.settings.node_limit = n
            self.bridge.command("node_limit", n)
            snap = self.bridge.view(self.position).snapshot
            if self.settings.auto and snap is not None and snap.state == "node_limit":
                self.bridge.set_position(self.position)  # the old limit stopped it: go on
            self.say(f"node limit {an.human_count(n)}")
            self._refresh_engine(self.bridge.view(self.position))

        self.push_screen(
            PromptScreen("Node limit (e.g. 500k, 2M):", str(self.settings.node_limit)), done
        )

    def action_hash_size(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                n = parse_count(text, "hash size", 1, MAX_HASH_MB)
            except ValueError as exc:
                self.error(str(exc))
                return
            self.settings.hash_mb = n
            self.bridge.command("hash", n)
            if self.settings.auto:
                self.bridge.set_position(self.position)  # search again with the new tables
            self.say(f"hash {n} MB")
            self._refresh_engine(self.bridge.view(self.position))

        self.push_screen(PromptScreen("Hash size in MB:", str(self.settings.hash_mb)), done)

    # ------------------------------------------------------------------ files
    def load_position(self, pos: Position, headers: dict[str, str] | None = None) -> None:
        """Replace the game (undoable)."""
        self.model.load(pos)
        if headers is not None:
            self.headers = dict(headers)
        self._position_changed()

    def load_file(self, path: Path) -> bool:
        """Load a game file; on error say so and change nothing."""
        try:
            game = gamefile.load_game(path)
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.load_position(game.position, game.headers)
        self.say(f"loaded {path} ({game.position.ply} moves)")
        return True

    def save_file(self, path: Path) -> bool:
        """Save the whole line atomically; on error say so."""
        game = gamefile.Game(self.model.full_position(), dict(self.headers))
        try:
            written = gamefile.save_game(path, game)
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.say(f"saved {written}")
        return True

    def action_load(self) -> None:
        def done(text: str | None) -> None:
            if text and text.strip():
                self.load_file(gamefile.resolve_user_path(text))

        self.push_screen(
            PromptScreen(f"Open file (relative to {gamefile.data_dir()}):",
                         placeholder="game.c4g"),
            done,
        )

    def action_save(self) -> None:
        def done(text: str | None) -> None:
            if text and text.strip():
                self.save_file(gamefile.resolve_user_path(text))

        default = gamefile.default_save_path().name
        self.push_screen(
            PromptScreen(f"Save as (relative to {gamefile.data_dir()}):", default), done
        )

    def action_enter_moves(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                pos = Position.parse(text)
            except IllegalMoveError as exc:
                self.error(f"moves: {exc}")
                return
            self.load_position(pos)

        self.push_screen(
            PromptScreen("Moves (4453 or d1 d2 e1 c1):", self.model.full_position().digits()),
            done,
        )

    def action_copy(self) -> None:
        digits = self.position.digits()
        self.copy_to_clipboard(digits)
        self.say(f"copied {digits or '(empty board)'}")

    def action_copy_game(self) -> None:
        text = gamefile.format_game(gamefile.Game(self.model.full_position(), self.headers))
        self.copy_to_clipboard(text)
        self.say("copied the game file")
