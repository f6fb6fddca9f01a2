"""Pilot tests of the workstation: playing, navigation, undo/redo, files, prompts."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import IllegalMoveError, Position
from pilot_util import screen_text, sync

from c4tui.app import C4App
from c4tui.app.session.model import GameModel
from c4tui.app.widgets import BoardView
from c4tui.gamefile import load_game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")


def make_app(moves: str = "") -> C4App:
    return C4App(Position.from_moves(moves), engine=False)


# ---------------------------------------------------------------------------- model
def test_model_opens_a_variation_and_undoes():
    m = GameModel(Position.from_moves("4453"))
    m.goto(2)
    m.play(4)  # same as the line's next move: just follows it
    assert (m.line, m.ply) == ([3, 3, 4, 2], 3)
    m.play(0)  # a different move: a variation, walked now; the main line stays
    assert (m.line, m.ply) == ([3, 3, 4, 0], 4)
    assert m.root.cols(m.root.main_path()) == [3, 3, 4, 2]
    assert m.undo() and (m.line, m.ply) == ([3, 3, 4, 2], 3)
    assert m.redo() and (m.line, m.ply) == ([3, 3, 4, 0], 4)
    assert not m.redo()
    with pytest.raises(IllegalMoveError, match="column d is full"):
        GameModel(Position.from_moves("444444")).play(3)


# ---------------------------------------------------------------------------- playing
@sync
async def test_play_with_digits_cursor_and_mouse():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "4")
        assert app.model.line == [3, 3]
        await pilot.press("right", "enter")  # cursor follows the last move (d) -> e
        assert app.model.line == [3, 3, 4]
        board = app.query_one("#board", BoardView)
        # click column c: gutter 2 + cell 4 per column, inside the border and padding
        await pilot.click("#board", offset=(2 + 2 + 2 * 4 + 1, 5))
        assert app.model.line == [3, 3, 4, 2]
        assert board.position.digits() == "4453"
        text = str(board.render())  # players differ without colour: solid / hollow
        assert text.count("●") == 2 and text.count("○") == 1 and text.count("◎") == 1
        assert app.position.to_move == 0


@sync
async def test_illegal_moves_are_refused_with_a_message():
    app = make_app("444444")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4")
        assert app.model.line == [3] * 6
        assert "column d is full" in app.last_error
    app = make_app("4455667")  # White has won
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        assert app.position.ply == 7
        assert "the game is over (White has won)" in app.last_error
        text = str(app.query_one("#analysis").render())
        assert "White has won" in text


# ---------------------------------------------------------------------------- navigation
@sync
async def test_navigation_variation_and_undo_redo():
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "up")
        assert app.model.ply == 2 and app.position.digits() == "44"
        await pilot.press("home")
        assert app.model.ply == 0
        await pilot.press("end")
        assert app.model.ply == 4
        await pilot.press("home", "down")
        assert app.position.digits() == "4"
        await pilot.press("7")  # from an earlier ply: a variation
        assert app.model.line == [3, 6]
        await pilot.press("u")
        assert app.model.line == [3, 3, 4, 2] and app.model.ply == 1
        await pilot.press("ctrl+r")
        assert app.model.line == [3, 6]
        await pilot.press("ctrl+r")
        assert "nothing to redo" in app.last_error
        await pilot.press("backspace")  # takes the variation's move back: the main line
        assert app.model.line == [3, 3, 4, 2] and app.model.ply == 1
        assert not app.model.root.has_variations()


@sync
async def test_move_list_shows_numbered_pairs_and_jumps():
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        text = str(app.query_one("#moves").render())
        assert "1. d1 d2 2. e1 c1" in text
        await app.run_action("screen.tree('goto', (1,))")
        await pilot.pause()
        assert app.position.digits() == "4"
        # click "e1" (third ply) in the move list: "start 1. d1 d2 2. e1"
        await pilot.click("#moves", offset=(len("start 1. d1 d2 2. ") + 1, 0))
        assert app.position.digits() == "445"


# ---------------------------------------------------------------------------- files
@sync
async def test_save_and_load_through_the_picker(tmp_path):
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        inp = app.screen.query_one("#picker-input")
        inp.value = "mine.c4g"  # relative to the folder shown: the data directory
        await pilot.press("enter")
        await pilot.pause()
        saved = tmp_path / "xdg" / "c4tui" / "mine.c4g"
        assert load_game(saved).position.digits() == "4453"
        await pilot.press("home", "1")  # change the game
        assert app.model.line == [0]
        await pilot.press("o")
        await pilot.pause()
        inp = app.screen.query_one("#picker-input")
        inp.value = "mine.c4g"
        inp.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.model.line == [3, 3, 4, 2] and app.model.ply == 4
        await pilot.press("u")  # loading is undoable
        assert app.model.line == [0]


@sync
async def test_bad_files_change_nothing(tmp_path):
    bad = tmp_path / "bad.c4g"
    bad.write_text("1. d1 d2 2. e2 *\n")  # e2: a disc in column e lands on e1
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.files.load_file(bad)
        assert "bad.c4g: line 1: move 3 'e2': a disc in column e lands on e1" in app.last_error
        assert not app.files.load_file(tmp_path / "nope.c4g")
        assert "no such file" in app.last_error
        assert app.model.line == [3, 3, 4, 2]
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("escape")  # cancelling changes nothing either
        await pilot.pause()
        assert app.model.line == [3, 3, 4, 2]


@sync
async def test_save_failure_leaves_old_file(tmp_path):
    target = tmp_path / "g.c4g"
    save_game(target, Position.from_moves("1"))
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.files.save_file(tmp_path)  # a directory
        assert "is a directory" in app.last_error
        assert not app.files.save_file(target)  # exists: asks first, keeps the old file
        await pilot.pause()
        assert "g.c4g exists. Replace it?" in screen_text(app)
        assert load_game(target).position.digits() == "1"
        assert app.files.save_file(target, overwrite=True)  # the user said yes
        assert load_game(target).position.digits() == "4453"


@sync
async def test_enter_moves_and_copy():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "d1 d2 e9"
        await pilot.press("enter")
        await pilot.pause()
        assert "moves: move 3 'e9': not a square" in app.last_error
        assert app.model.line == []
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "1. d1 d2 2. e1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.position.digits() == "445"
        await pilot.press("c")
        assert app.clipboard == "445"


@sync
async def test_threat_map_toggle():
    # White threatens c1/g1 after d1 e1 f1 (odd, acute); Black has none
    app = make_app("41516")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        info = str(app.query_one("#threat-info").render())
        assert "White c1 odd ACUTE, g1 odd ACUTE" in info
        assert "Black none" in info
        board = str(app.query_one("#board").render())
        assert board.count("O") == 2  # the two acute odd threats on row 1
        await pilot.press("t")
        assert not app.query_one("#threat-info").display


@sync
async def test_node_limit_and_hash_prompts_validate():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "lots"
        await pilot.press("enter")
        await pilot.pause()
        assert "node limit: 'lots' is not a number" in app.last_error
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "500k"
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.limits.nodes == 500_000
        await pilot.press("H")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "100000"
        await pilot.press("enter")
        await pilot.pause()
        assert "hash size: 100000 is out of range" in app.last_error
        # a size as the status line writes it ("hash 16M") is taken (issue 24, item 7)
        await pilot.press("H")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "64M"
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.options.hash_mb == 64


@sync
async def test_command_palette_lists_actions():
    app = make_app()
    async with app.run_test(size=(80, 24)):
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for t in ("Undo", "Redo", "Threats", "Pause", "Step", "Step N nodes", "Node limit",
                  "Hash size", "Open", "Save", "Enter moves", "Copy", "Auto",
                  # the app's own keys (the why view), not only the screen's
                  "Why: Allis's rules in the threat panel",
                  "Why: the next rule's refuted groups"):
            assert t in titles, t
        assert sum(c.title == "Quit" for c in app.get_system_commands(app.screen)) == 1


@sync
async def test_engine_not_available_state():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "engine off (--no-engine)" in str(app.query_one("#status").render())
        await pilot.press("space")
        assert app.last_error == "search: the engine is off (--no-engine)"


# ---------------------------------------------------------------------------- command line
def test_open_targets(tmp_path, monkeypatch):
    from c4tui.cli.open import resolve_target

    monkeypatch.chdir(tmp_path)
    assert resolve_target([]).position.digits() == ""
    assert resolve_target(["4453"]).position.digits() == "4453"
    assert resolve_target(["d1", "d2", "e1"]).position.digits() == "445"
    save_game(tmp_path / "g.c4g", Position.from_moves("4453"))
    game = resolve_target(["g.c4g"])
    assert game.position.digits() == "4453" and game.headers["Result"] == "*"
    (tmp_path / "v.c4g").write_text("1. d1 {centre} d2 (1... e1) *\n")
    game = resolve_target(["v.c4g"])  # the variations and comments come along
    assert game.tree.has_variations() and game.tree.children[0].comment == "centre"
    with pytest.raises(ValueError, match="nope.c4g: no such file"):
        resolve_target(["nope.c4g"])
    with pytest.raises(ValueError, match="neither a file nor a move sequence: character 4"):
        resolve_target(["4458"])


def test_open_command_reports_bad_input(tmp_path, capsys):
    from c4tui.cli import main

    (tmp_path / "bad.c4g").write_text("[Result \"1-0\"]\n4453\n")
    for argv, expected in (
        ([str(tmp_path / "bad.c4g")], "Result header '1-0' does not match the moves"),
        (["4444444"], "column d is full"),
        (["--nodes", "lots"], "--nodes 'lots': not a number"),
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert expected in err and err.count("\n") == 1, err


# ---------------------------------------------------------------------------- the terminal
def _run_in_pty(code: str, env: dict[str, str] | None = None):
    """Start ``python -c code`` on a new pseudo-terminal (80x24) that is *not* its
    controlling terminal (like ``make run``: no SIGHUP when it closes); returns the
    process and the master side."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    full_env = {**os.environ, "TERM": "xterm-256color", **(env or {})}
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave,
                            stderr=slave, env=full_env, start_new_session=True)
    os.close(slave)
    return proc, master


def _read_until(master: int, needle: bytes, timeout: float) -> bytes:
    import os
    import select
    import time

    seen = b""
    end = time.monotonic() + timeout
    while needle not in seen:
        left = end - time.monotonic()
        assert left > 0, f"{needle!r} never appeared: {seen[-300:]!r}"
        if select.select([master], [], [], left)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


PLAIN_APP = ("import sys; from c4tui.app import C4App; app = C4App(engine=False); app.run(); "
             "sys.exit(app.return_code)")


def _drain(master: int) -> None:
    """Read the app's output in the background, as a terminal does (a full pty would
    block the app's writes)."""
    import os
    import threading

    def run() -> None:
        try:
            while os.read(master, 65536):
                pass
        except OSError:
            pass

    threading.Thread(target=run, daemon=True).start()


def test_closing_the_terminal_ends_the_app():
    """Bug: a closed terminal left the app spinning at 90% CPU (no SIGHUP under make)."""
    import os
    import time

    proc, master = _run_in_pty(PLAIN_APP)
    try:
        _read_until(master, b"board", 20)
        t = time.monotonic()
        os.close(master)  # the terminal window goes away
        assert proc.wait(timeout=5) == 129  # the clean exit, not the hard one after 2 s
        assert time.monotonic() - t < 1.9
    finally:
        if proc.poll() is None:
            proc.kill()


def test_sighup_ends_the_app():
    import os
    import signal
    import time

    proc, master = _run_in_pty(PLAIN_APP)
    try:
        _read_until(master, b"board", 20)
        _drain(master)
        t = time.monotonic()
        os.kill(proc.pid, signal.SIGHUP)
        assert proc.wait(timeout=5) == 129
        assert time.monotonic() - t < 1.9
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_quit_during_the_first_compile_is_immediate(tmp_path):
    """Bug: q while numba compiled (first start) hung until the compile ended (~50 s)."""
    import os
    import time

    code = "from c4tui.app import C4App; C4App().run()"
    proc, master = _run_in_pty(code, {"NUMBA_CACHE_DIR": str(tmp_path / "cold")})
    try:
        _read_until(master, b"compiling", 60)
        _drain(master)
        from waiting import children, cpu_seconds, wait_until

        # the compile under way: its child process has worked for 0.3 s of CPU
        wait_until(lambda: any(cpu_seconds(k) >= 0.3 for k in children(proc.pid)), 60,
                   "the compile in a child process", proc=proc)
        t = time.monotonic()
        os.write(master, b"q")
        proc.wait(timeout=10)
        elapsed = time.monotonic() - t
        print(f"quit took {elapsed:.2f} s")
        assert elapsed < 1.0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


# ---------------------------------------------------------------------------- new users
@sync
async def test_absurd_numbers_in_prompts_give_one_line_errors():
    """Bug: 1.0e400 in the l / N / H prompts killed the app (and the game)."""
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, what in (("l", "node limit"), ("H", "hash size"), ("l", "node limit")):
            await pilot.press(key)
            await pilot.pause()
            app.screen.query_one("#prompt-input").value = "1.0e400"
            await pilot.press("enter")
            await pilot.pause()
            assert app.last_error.startswith(f"{what}: 1.0e400 is out of range")
            assert "\n" not in app.last_error
        assert app.is_running and app.model.line == [3, 3, 4, 2]
        assert app.settings.search_limits().nodes == 2_000_000
        assert app.settings.options.hash_mb == 16
        await pilot.press("H")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "1.5"
        await pilot.press("enter")
        await pilot.pause()
        assert "not a whole number" in app.last_error


@sync
async def test_a_new_game_does_not_keep_the_old_headers(tmp_path):
    """Bug: open a file, enter new moves, copy: the old [Event] stayed; undo of a load
    did not bring the headers back."""
    game = tmp_path / "event.c4g"
    game.write_text('[Event "Club final"]\n[Result "*"]\n\n1. d1 d2 *\n')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.files.load_file(game)
        await pilot.press("C")
        assert "Club final" in app.clipboard
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "4453"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("C")
        assert "Club final" not in app.clipboard and "2. e1 c1" in app.clipboard
        await pilot.press("u")  # back to the loaded game, with its headers
        await pilot.press("C")
        assert "Club final" in app.clipboard and app.model.line == [3, 3]
        await pilot.press("u")  # before the load: no headers
        await pilot.press("C")
        assert "Club final" not in app.clipboard and app.model.line == []


@sync
async def test_keys_without_a_search_say_why_and_errors_do_not_stack():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("space", "n", "x"):
            await pilot.press(key)
            await pilot.pause()
            assert app.last_error == "search: the engine is off (--no-engine)"
        assert len(app._notifications) == 1  # each error replaces the one before


def test_model_keeps_a_live_position():
    m = GameModel(Position.from_moves("4453"))
    pos = m.position
    m.goto(1)
    assert m.position is pos and pos.digits() == "4"  # moved along, not replayed
    m.goto(4)
    assert pos.digits() == "4453" and m.full_position().digits() == "4453"
    m.take_back()
    assert m.position.digits() == "445" and m.line == [3, 3, 4]


def _iteration(depth: int, score: int, band: str = "heuristic", nodes: int = 40_412_345,
               move: int = 3, **kw):
    from c4tui.engine.seam import Band, IterationReport, Score

    return IterationReport(depth=depth, alpha=-10000, beta=10000, fail_highs=1, fail_lows=0,
                           score=Score(score, Band(band)), best_move=move, nodes=nodes,
                           nps=3_100_000, tt_probes=10, tt_hits=5, hit_rate=0.5,
                           tt_fill=0.25, elapsed=12.3, pv=(move, 3, 4, 2, 2, 2), **kw)


def _snapshot(its, state="searching", nodes=None, result=None):
    from c4tui.engine.seam import SearchState, Snapshot

    last = its[-1] if its else None
    return Snapshot(state=SearchState(state), depth=(last.depth + 1) if last else 1,
                    nodes=nodes if nodes is not None else sum(i.nodes for i in its) + 5000,
                    nps=3_000_000, elapsed=13.0, best_move=last.best_move if last else None,
                    score=last.score if last else None,
                    iterations=tuple(its), result=result)


def _screen_lines(widget) -> list[str]:
    """The widget's text as the terminal shows it: each line cut at the widget's width."""
    return [line[: widget.size.width] for line in str(widget.render()).splitlines()]


@sync
async def test_80x24_shows_every_log_column_and_the_whole_analysis_line():
    """Bug: at 80x24 the log was cut mid-number and hid pv/time/hit/fill; the analysis
    line hid depth and best move; the threat verdict and status line were cut."""
    from c4tui.app.bridge.engine_view import EngineState, EngineView
    from c4tui.app.widgets import AnalysisPanel, SearchLog, StatusLine

    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        its = [_iteration(d, 470 + d if d % 2 else -(470 + d)) for d in range(1, 13)]
        snap = _snapshot(its)
        log = app.query_one(SearchLog)
        log.snapshot = snap
        view = EngineView(EngineState.READY, app.settings, search_available=True,
                          snapshot=snap)
        app.query_one(AnalysisPanel).view = view
        app.query_one(StatusLine).view = view
        await pilot.pause()
        lines = _screen_lines(log)
        for title in ("window", "re", "score", "nodes", "n/s", "hit", "fill", "time", "pv"):
            assert title in lines[0].split(), title
        row = lines[-2].split()  # the last completed iteration; then the live row
        assert row[:9] == ["12", "[-∞,∞]", "1/0", "-482", "40.4M", "3.3M", "50%", "25%",
                           "12.3s"] and row[9:11] == ["d3", "d4"]
        assert lines[-1].split()[:2] == ["13", "searching"]  # the next depth, not the last
        analysis = _screen_lines(app.query_one(AnalysisPanel))
        assert "d12 best d · Black ahead (-482)" in analysis[2]
        status = _screen_lines(app.query_one(StatusLine))[0]
        assert "searching" in status and "auto on" in status
        await pilot.press("t")
        await pilot.pause()
        threats = str(app.query_one("#threat-info").render())
        assert threats.splitlines()[0].endswith("(off: --no-engine)")


def test_search_log_folds_identical_proven_iterations():
    """Bug: 30-40 identical rows for a position the book or a quick proof settles."""
    from c4tui.report.log_rows import iteration_rows as _rows

    pos = Position.from_moves("4453")
    its = [_iteration(1, 470), *[_iteration(d, -1, "recognized", nodes=10)
                                 for d in range(2, 34)]]
    rows = _rows(pos, _snapshot(its, state="done"))
    assert [r.cells["d"] for r in rows] == ["1", "2-33"]
    assert rows[1].cells["nodes"] == "320"


def test_a_book_row_of_the_search_log_shows_no_speed_window_or_time():
    """Bug (issue 36, item 10, in the app): the books' answer read "n/s 14.8k" and "0ms",
    numbers made of nothing; ``c4tui analyze`` already showed "-" there."""
    from c4tui.engine.seam import Source

    from c4tui.report.log_rows import NOT_SEARCHED
    from c4tui.report.log_rows import iteration_rows as _rows

    pos = Position.from_moves("34444445")
    book = _iteration(2, 0, "exact", nodes=4, source=Source.BOOK)
    (row,) = _rows(pos, _snapshot([book], state="done"))
    assert row.cells["d"] == "book" and row.cells["nodes"] == "4"
    assert [row.cells[c] for c in NOT_SEARCHED] == ["-"] * 6
    (searched,) = _rows(pos, _snapshot([_iteration(2, 0)], state="done"))
    assert searched.cells["n/s"] == "3.3M" and searched.cells["time"] == "12.3s"


def test_status_line_counts_a_paused_search_exactly_and_says_a_win_at_once():
    """Bug: N 10000 was invisible at 40.4M; an immediate win read "d0 0 nodes"."""
    from c4tui.engine.seam import Band, Score, SearchResult, SearchState, Source

    from c4tui.app.bridge.engine_view import EngineState, EngineView
    from c4tui.app.bridge.settings import SearchSettings
    from c4tui.app.widgets import StatusLine

    line = StatusLine()
    its = [_iteration(1, 470)]
    line.view = EngineView(EngineState.READY, SearchSettings(),
                           snapshot=_snapshot(its, "paused", nodes=40_412_345))
    assert "40,412,345 nodes" in str(line.render())
    win = _iteration(1, 18, "exact", nodes=0, source=Source.EXACT)
    res = SearchResult(3, Score(18, Band.EXACT), (3,), 0, 1, SearchState.DONE)
    line.view = EngineView(EngineState.READY, SearchSettings(),
                           snapshot=_snapshot([win], "done", nodes=0, result=res))
    text = str(line.render())
    assert "a win at once" in text and "d0" not in text


def test_a_large_hash_says_it_takes_time():
    from c4tui.app.bridge.engine_bridge import EngineBridge
    from c4tui.app.bridge.settings import SearchSettings

    bridge = EngineBridge(SearchSettings(), enable=False)
    assert "takes a few seconds" in bridge.search.set_hash(4096)
    assert bridge.search.set_hash(64) == "hash 64 MB"


def test_without_colour_the_sides_differ_by_glyph():
    """Bug: under NO_COLOR the graph's side and the threat map's owner looked alike."""
    from c4tui.app.widgets import BoardView
    from c4tui.app.widgets.eval_graph import cells

    white, black = cells(0.5, True, 1, 1), cells(-0.5, True, 1, 1)  # above, axis, below
    assert white[0][0] != " " and white[2][0] == " "  # White's bar stands above the axis
    assert black[0][0] == " " and black[2][0] != " "  # Black's hangs below it
    board = BoardView()
    board.show_threats = True
    board.position = Position.from_moves("41516")  # White threatens c1 and g1
    text = str(board.render())
    assert "O•" in text and "∘" not in text
    board.position = Position.from_moves("141516")  # Black: c1 g1; White: a4
    text = str(board.render())
    assert text.count("O∘") == 2 and "E•" in text


@sync
async def test_status_line_says_books_for_a_book_answer_without_nodes():
    """Bug: a root whose children are all in the books is answered with 0 solver nodes,
    and the status line called it 'a win at once'."""
    from c4tui.engine.seam import Band, Score, SearchResult, SearchState, Source

    from c4tui.app.bridge.engine_view import EngineState, EngineView
    from c4tui.app.widgets import StatusLine

    app = make_app("22132611366")
    async with app.run_test(size=(80, 24)) as pilot:
        it = _iteration(2, 0, "exact", nodes=0, source=Source.BOOK)
        res = SearchResult(3, Score(0, Band.EXACT), (3, 4), 0, 2, SearchState.DONE, 0)
        view = EngineView(EngineState.READY, app.settings, search_available=True,
                          snapshot=_snapshot([it], state="done", nodes=0, result=res))
        app.query_one(StatusLine).view = view
        await pilot.pause()
        status = _screen_lines(app.query_one(StatusLine))[0]
        assert "from the books" in status and "win at once" not in status


@sync
async def test_question_mark_lists_every_key():
    """The footer has room for a few keys; `?` shows all of them, hidden ones too."""
    from rich.console import Console
    from textual.widgets import HelpPanel
    from textual.widgets._key_panel import BindingsTable

    app = make_app("4453")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        table = app.screen.query_one(HelpPanel).query_one(BindingsTable)
        console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(table.render_bindings_table())
        text = console.export_text()
        for description in ("review game", "play mode", "preview line", "recent files",
                            "games list", "promote variation", "undo"):
            assert description in text, description
        await pilot.press("4")  # the game's keys still work with the panel open
        await pilot.press("question_mark")
        await pilot.pause()
        assert not app.screen.query(HelpPanel)
        assert app.model.line[-1] == 3
