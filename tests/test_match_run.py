"""c4tui match end to end: a real short match of our engine at two node limits (output
and .c4g records), engines that crash, hang or play illegal moves (each loses its games,
said in one line), and bad command lines (one line, no traceback)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from c4tui.gamefile import load_game

#: A scripted UGI engine; argv[1] says how it misbehaves when asked to move.
FAULTY = textwrap.dedent("""\
    import sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "ugi":
            print("id name faulty-" + mode)
            print("ugiok", flush=True)
        elif w[0] == "isready":
            print("readyok", flush=True)
        elif w[0] == "go":
            if mode == "crash":
                print("faulty: out of memory", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode == "illegal":
                print("bestmove a7", flush=True)
        elif w[0] == "quit":
            break
""")


def run_match(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "c4tui", "match", *args],
                          capture_output=True, text=True, timeout=timeout)


def openings_file(tmp_path: Path, *lines: str) -> Path:
    f = tmp_path / "openings.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f


def test_a_short_match_of_two_node_limits_prints_the_table_and_writes_records(tmp_path):
    ops = openings_file(tmp_path, "4453", "d1 c1 d2")
    out = tmp_path / "games"
    t0 = time.monotonic()
    proc = run_match("--nodes", "20k/500", "--games", "4", "--openings", str(ops),
                     "--records", str(out), "--sprt", "0", "50")
    took = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert took < 30, took
    lines = proc.stdout.splitlines()
    assert lines[0] == ("A: c4tui 0.1.0 (20,000 nodes per move)  vs  "
                        "B: c4tui 0.1.0 (500 nodes per move)")
    assert lines[1].startswith(f"4 games, 2 openings from {ops}, 1 at once, adjudication at 12")
    games = [x for x in lines if x.startswith("game ")]
    assert [g.split(":")[0] for g in games] == ["game 1", "game 2", "game 3", "game 4"]
    assert "opening 4453" in games[0] and "opening 4453" in games[1]
    assert games[0].startswith("game 1: A (c4tui 0.1.0) - B (c4tui 0.1.0) ")
    assert games[1].startswith("game 2: B (c4tui 0.1.0) - A (c4tui 0.1.0) ")
    assert "opening 434" in games[2]  # d1 c1 d2, as digits
    assert lines[-3].startswith("match over after ")
    final = lines[-2].strip()
    assert final.startswith("4/4 games  A: ") and "Elo " in final and "(95%: " in final
    assert " LLR " in final and "(-2.94, +2.94)" in final
    w, d, lo = (int(final.split()[3 + 2 * i]) for i in range(3))  # "A: w W d D l L"
    assert w + d + lo == 4
    assert lines[-1].strip().startswith("SPRT: ")
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["0001.c4g", "0002.c4g", "0003.c4g", "0004.c4g"]
    points_a = 0.0
    for n, f in enumerate(files, start=1):
        game = load_game(f)
        h = game.headers
        assert h["Event"] == "c4tui match" and h["Round"] == str(n)
        white, black = ("A", "B") if n % 2 else ("B", "A")
        assert h["White"] == f"c4tui 0.1.0 ({white})" and h["Black"] == f"c4tui 0.1.0 ({black})"
        assert game.position.digits().startswith(h["Opening"])
        term = h["Termination"]
        if term == "normal":
            result = h["Result"]
            assert result != "*" and game.position.is_over
        else:  # adjudicated: the result is in the termination, the board is not full
            assert term.startswith("adjudicated: ") and "exact solver" in term
            assert h["Result"] == "*" and 42 - game.position.ply <= 12
            result = term.split()[1]
        assert f"game {n}:" in games[n - 1] and result in games[n - 1]
        points_a += {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result] if white == "A" else \
            {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]
    assert points_a == w + d / 2


def test_json_lines_and_a_summary_of_two_games_at_once(tmp_path):
    ops = openings_file(tmp_path, "4444")
    proc = run_match("--nodes", "2k", "--games", "2", "--openings", str(ops), "--json",
                     "--sprt", "-10", "10", "--concurrency", "2")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["event"] for r in rows] == ["game", "game", "summary"]
    # the two games ran side by side: either may end first
    assert sorted((r["game"], r["white"]) for r in rows[:2]) == [(1, "A"), (2, "B")]
    assert all(r["moves"].startswith("4444") for r in rows[:2])
    s = rows[-1]
    assert s["games"] == 2 and s["wins"] + s["draws"] + s["losses"] == 2
    assert sum(s["pentanomial"]) == 1 and s["sprt"]["lower"] < s["sprt"]["llr"] < \
        s["sprt"]["upper"] and s["sprt"]["verdict"] is None


def _faulty_match(tmp_path: Path, mode: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "faulty.py"
    script.write_text(FAULTY, encoding="utf-8")
    ops = openings_file(tmp_path, "44")
    return run_match("", f"{sys.executable} {script} {mode}", "--nodes", "1k", "--games", "2",
                     "--openings", str(ops), "--timeout", "1", "--adjudicate", "0")


def test_an_engine_that_crashes_loses_each_game_and_is_started_again(tmp_path):
    proc = _faulty_match(tmp_path, "crash")
    assert proc.returncode == 0, proc.stderr
    games = [x for x in proc.stdout.splitlines() if x.startswith("game ")]
    assert games == [
        "game 1: A (c4tui 0.1.0) - B (faulty-crash) 1-0, opening 44, crash: B (faulty-crash) "
        "as Black lost: exited (code 3): faulty: out of memory",
        "game 2: B (faulty-crash) - A (c4tui 0.1.0) 0-1, opening 44, crash: B (faulty-crash) "
        "as White lost: exited (code 3): faulty: out of memory"]
    assert "A: 2 W 0 D 0 L  100.0%" in proc.stdout and "Traceback" not in proc.stderr


def test_an_engine_that_never_answers_loses_on_time(tmp_path):
    proc = _faulty_match(tmp_path, "hang")
    assert proc.returncode == 0, proc.stderr
    games = [x for x in proc.stdout.splitlines() if x.startswith("game ")]
    assert len(games) == 2
    for g in games:
        assert ", time forfeit: B (faulty-hang) as " in g
        assert "lost: no bestmove within 1 s after go nodes 1000" in g


def test_an_illegal_move_loses(tmp_path):
    proc = _faulty_match(tmp_path, "illegal")
    assert proc.returncode == 0, proc.stderr
    games = [x for x in proc.stdout.splitlines() if x.startswith("game ")]
    assert games[0].startswith("game 1: A (c4tui 0.1.0) - B (faulty-illegal) 1-0, opening 44, "
                               "illegal move: B (faulty-illegal) as Black lost: illegal move "
                               "'a7' after 3 moves (legal: a1 b1 c1 ")
    assert "A: 2 W 0 D 0 L" in proc.stdout


def test_bad_command_lines_are_one_line(tmp_path):
    ops = openings_file(tmp_path, "44", "4x")
    cases = [
        (["no-such-engine-c4tui"], "c4tui: match: engine A (no-such-engine-c4tui): cannot "
         "start it: No such file or directory"),
        (["", 'prog "unclosed'], "c4tui: ENGINE_B 'prog \"unclosed': no closing quotation"),
        (["--openings", str(ops)], f"c4tui: match: {ops}:2: move 1 '4x': not a square"),
        (["--sprt", "5", "0"], "c4tui: --sprt 5 0: ELO0 must be below ELO1"),
        (["--concurrency", "99"], "c4tui: --concurrency 99: out of range (1 to 16)"),
        (["--nodes", "1k/2k/3k"], "c4tui: --nodes '1k/2k/3k': expected N, or A/B"),
        (["--adjudicate", "30"], "c4tui: --adjudicate 30: out of range (0 to 20)"),
        # options the engine does not have, or refuses: they were ignored, the match played
        (["--option", "Hsh=64"], "c4tui: match: engine A ("),
        (["--option-b", "Level=11"], "c4tui: match: engine B ("),
    ]
    for args, start in cases:
        proc = run_match(*args, "--games", "2")
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.startswith(start), (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and proc.stdout == "", (args, proc.stderr)
    assert proc.stderr.endswith("): error: setoption: option Level 11: out of range (0 to 10)\n")
    proc = run_match("--option", "Hsh=64", "--games", "2")
    assert proc.stderr.endswith("): option Hsh=64: it has no option 'Hsh'\n"), proc.stderr


def test_records_refuse_a_directory_with_games(tmp_path):
    (tmp_path / "0001.c4g").write_text("44\n")
    proc = run_match("--records", str(tmp_path), "--openings",
                     str(openings_file(tmp_path, "44")))
    assert proc.returncode == 2
    assert proc.stderr == (f"c4tui: --records {tmp_path}: already holds game files "
                           "(give a new or empty directory)\n")


def test_the_sprt_stops_a_match_against_a_random_mover_with_h1(tmp_path):
    random_mover = Path(__file__).with_name("ugi_random.py")
    proc = run_match("", f"{sys.executable} {random_mover}", "--nodes", "2k", "--games",
                     "60", "--sprt", "0", "100", "--openings",
                     str(openings_file(tmp_path, "44", "4453", "1")), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["sprt"]["verdict"] == "H1"
    assert summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    assert summary["games"] < 60 and summary["losses"] == 0


def test_ctrl_c_stops_at_once_with_the_summary_and_status_130(tmp_path):
    script = tmp_path / "faulty.py"
    script.write_text(FAULTY, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "match", "", f"{sys.executable} {script} hang",
         "--openings", str(openings_file(tmp_path, "44")), "--timeout", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        while not proc.stdout.readline().startswith("100 games"):  # the heading: playing
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert out, (out, err)
    assert out.splitlines()[0].startswith("match over after ") and \
        out.splitlines()[0].endswith(" s (interrupted)")
    assert "Traceback" not in err
