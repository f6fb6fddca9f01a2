"""Issue 24, items 6 and 7: one empty position, one move vocabulary, one error format on
every command (exact one-line outputs and exit statuses)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _run(argv, capsys, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


# -- solve reads squares as open and review do -------------------------------------------

def test_solve_reads_squares_as_open_does(capsys):
    """Square words are one position, as for ``c4tui d1 d2 e1 c1``; printed as digits."""
    code, out, err = _run(["solve", "d1", "d2", "e1", "c1"], capsys)
    assert (code, err) == (0, "")
    assert out == "4453 -2\n"
    code, out2, _ = _run(["solve", "4453"], capsys)
    assert code == 0 and out2 == out


def test_solve_reads_a_quoted_square_list_and_digit_positions(capsys):
    code, out, err = _run(["solve", "d1 d2 e1 c1", "44"], capsys)
    assert code == 0 and err == ""
    assert [ln.split()[0] for ln in out.splitlines()] == ["4453", "44"]


def test_solve_squares_on_stdin(capsys, monkeypatch):
    code, out, err = _run(["solve"], capsys, "d1 d2 e1 c1\n", monkeypatch)
    assert code == 0 and err == "" and out.split()[0] == "4453"


def test_solve_accepts_a_leading_bom_on_stdin(capsys, monkeypatch):
    """A file saved with a byte-order mark: accepted, as game files are."""
    code, out, err = _run(["solve"], capsys, "\ufeff4453\n44\n", monkeypatch)
    assert (code, err) == (0, "")
    assert [ln.split()[0] for ln in out.splitlines()] == ["4453", "44"]


# -- one empty position -------------------------------------------------------------------

def test_solve_skips_blank_stdin_lines_and_counts_them(capsys, monkeypatch):
    """A blank line is not a position: skipped (not solved as the empty board); line
    numbers in errors still count it."""
    code, out, err = _run(["solve"], capsys, "44\n\n   \n448\n", monkeypatch)
    assert code == 2
    assert out.splitlines() == [ln for ln in out.splitlines() if ln.startswith("44 ")]
    assert len(out.splitlines()) == 1
    assert err == "c4tui: line 4: character 3 '8': not a column (expected 1-7)\n"


def test_solve_empty_argument_is_the_empty_board(capsys):
    code, out, err = _run(["solve", ""], capsys)
    assert (code, err) == (0, "") and out == " 1\n"


def test_open_empty_argument_is_the_empty_board():
    from c4tui.engine.board.position import Position

    from c4tui.cli.open import resolve_target

    assert resolve_target([""]).position == Position()
    assert resolve_target(["  "]).position == Position()


def test_review_empty_argument_is_the_empty_board(capsys):
    code, out, err = _run(["review", ""], capsys)
    assert (code, out) == (2, "")
    assert err == "c4tui: review: the empty board has no moves to review\n"


def test_analyze_stdin_without_a_position_is_refused(capsys, monkeypatch):
    code, out, err = _run(["analyze"], capsys, "\n \n", monkeypatch)
    assert (code, out) == (2, "")
    assert err == ('c4tui: analyze: stdin holds no position (the empty board is '
                   'analyze "")\n')


def test_analyze_takes_words_as_open_does(capsys):
    """``analyze d1 d2 e1 c1``: the words are one position, as for ``c4tui``."""
    code, out, err = _run(["analyze", "d1", "d2", "e1", "c1", "--json", "--nodes", "1k"],
                          capsys)
    assert code == 0 and err == "", err
    code2, out2, _ = _run(["analyze", "4453", "--json", "--nodes", "1k"], capsys)
    last = [ln for ln in out.splitlines() if '"type": "result"' in ln]
    assert code2 == 0 and last and last[-1].split('"nodes"')[0] in out2


def test_solve_square_words_after_digits_are_one_position(capsys):
    code, out, err = _run(["solve", "44", "d1", "d2", "e1", "c1", ""], capsys)
    assert (code, err) == (0, "")
    assert [ln.split(" ")[0] for ln in out.splitlines()] == ["44", "4453", ""]


# -- serve checks what its sessions will get, and its port, before it says anything ----

def _serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "c4tui", "serve", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def test_serve_on_a_taken_port_says_so_in_one_line_without_a_banner():
    with _taken_port() as taken:
        port = taken.getsockname()[1]
        res = _serve("--port", str(port))
    assert (res.returncode, res.stdout) == (2, "")
    assert res.stderr == f"c4tui: --port {port}: 127.0.0.1:{port} is taken (another " \
                         "program listens there)\n"


def _taken_port() -> socket.socket:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    return taken


def test_serve_refuses_a_missing_game_file_as_open_does():
    """Checked before the port (taken here), not by each browser session."""
    taken = _taken_port()
    port = str(taken.getsockname()[1])
    res = _serve("missing.c4g", "--port", port)
    assert (res.returncode, res.stdout) == (2, "")
    assert res.stderr == "c4tui: missing.c4g: no such file\n"
    opened = subprocess.run([sys.executable, "-m", "c4tui", "missing.c4g"], capture_output=True,
                            text=True, timeout=60, cwd=ROOT)
    assert (opened.returncode, opened.stderr) == (2, res.stderr)
    res = _serve("4444444", "--port", port)
    taken.close()
    assert res.returncode == 2 and res.stderr.startswith("c4tui: '4444444' is neither")
    assert res.stderr.count("\n") == 1 and res.stdout == ""


# -- one error format: "c4tui: OPTION VALUE: reason", exit 2 -----------------------------

@pytest.mark.parametrize("argv, line", [
    (["solve", "44", "--hash", "1.5"], "c4tui: --hash 1.5: not a whole number of MB"),
    (["solve", "44", "--hash", "99999"], "c4tui: --hash 99999: out of range (1 to 4,096 MB)"),
    (["analyze", "44", "--nodes", "lots"], "c4tui: --nodes 'lots': not a number"),
    (["analyze", "44", "--depth=x"], "c4tui: --depth 'x': not a valid integer"),
    (["solve", "44", "--threads", "0"], "c4tui: --threads 0: out of range (1 to 64)"),
    (["solve", "44", "--threads", "x"], "c4tui: --threads 'x': not a valid integer"),
    (["analyze", "44", "--depth", "0"], "c4tui: --depth 0: out of range (1 to 42 plies)"),
    (["serve", "--port", "0"], "c4tui: --port 0: out of range (1 to 65,535)"),
    (["serve", "--max-sessions", "0"], "c4tui: --max-sessions 0: out of range (1 to 64)"),
    (["book", "build", "--plies", "50"], "c4tui: --plies 50: out of range (0 to 42)"),
    (["--play", "white", "--strength", "strong"],
     "c4tui: --strength 'strong': neither perfect, a level (1 to 10) nor a node count "
     "(e.g. 10k, 1M)"),
])
def test_bad_values_have_one_format(argv, line, capsys):
    code, out, err = _run(argv, capsys)
    assert (code, out, err) == (2, "", line + "\n")


# -- --book is the switch everywhere; a book file is --book-file --------------------------

def test_bench_and_book_lookup_name_a_book_file_with_book_file(capsys):
    code, out, err = _run(["bench", "--book-file", "missing.c4b"], capsys)
    assert (code, out, err) == (2, "", "c4tui: --book-file missing.c4b: no such book file\n")
    code, out, err = _run(["book", "lookup", "44", "--book-file", "missing.c4b"], capsys)
    assert (code, out, err) == (2, "", "c4tui: --book-file missing.c4b: no such book file\n")
    code, out, err = _run(["book", "lookup", "44", "--book", "x.c4b"], capsys)
    assert (code, out) == (2, "") and err == ("c4tui: No such option: --book (Possible options: "
                                              "--book-file) (see 'c4tui book lookup -h')\n")


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_book_build_refuses_a_checkpoint_interval_that_is_no_time(value, tmp_path, capsys):
    """-1 and nan were taken (nan: never a checkpoint); the build is not started."""
    out_file = tmp_path / "b.c4b"
    code, out, err = _run(["book", "build", "--plies", "1", "--workers", "0", "--no-progress",
                           "--out", str(out_file), "--checkpoint-every", value], capsys)
    assert (code, out) == (2, "")
    assert err == f"c4tui: --checkpoint-every {value}: not a number of seconds (0 or more)\n"
    assert not out_file.exists()


def test_bench_without_bitbully_says_both_ways_to_install_it(monkeypatch, capsys):
    """README's way is make bench (a checkout), pip's is the extra: the hint names both."""
    monkeypatch.setitem(sys.modules, "bitbully", None)  # import bitbully -> ImportError
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = _run(["bench", "-n", "1", "-t", "1", "--set", "Test_L2_R2", "--hash", "4"],
                          capsys)
    assert code == 0, err
    hint = [ln for ln in (out + err).splitlines() if "BitBully is not installed" in ln]
    assert hint == ["BitBully is not installed (pip install 'c4tui[bench]', or make bench in "
                    "a checkout): measuring c4tui alone"]


# -- help: what it shows is read as written --------------------------------------------

def _help(*words: str, columns: str = "200") -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "COLUMNS": columns}
    return subprocess.run([sys.executable, "-m", "c4tui", *words, "--help"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=env)


def test_help_reflows_docstrings_instead_of_keeping_their_line_breaks():
    """A docstring's hard line breaks were kept and rich wrapped the lines again: ragged."""
    text = _help("solve").stdout
    assert "squares, as arguments or one per line on stdin, and are printed as digits." in text
    narrow = [ln.strip() for ln in _help("solve", columns="60").stdout.splitlines()]
    para = narrow[narrow.index(next(ln for ln in narrow if ln.startswith("Positions are"))):]
    para = para[:para.index("")]
    assert all(len(ln) > 45 for ln in para[:-1]), para  # full lines but the last


def test_help_shows_no_bool_placeholder_and_says_its_defaults():
    for words in (["solve"], ["analyze"], ["open"], ["book", "info"], ["bench"]):
        res = _help(*words)
        assert res.returncode == 0 and "<bool>" not in res.stdout, words
    info = _help("book", "info").stdout
    assert "Book or checkpoint (default: the shipped book)." in info


def test_help_with_columns_0_prints_the_help():
    res = _help(columns="0")
    assert res.returncode == 0 and "Usage: c4tui" in res.stdout and "solve" in res.stdout


def test_analyze_help_says_each_switchs_default_from_the_search():
    """The switches left out keep the search's defaults: the help says which they are."""
    from c4tui.engine.seam import SearchOptions

    rows = {ln.strip("│ ").split()[0]: ln for ln in _help("analyze").stdout.splitlines()
            if ln.strip("│ ").startswith("--")}
    defaults = SearchOptions()
    for flag, field in (("--pvs", "pvs"), ("--mtdf", "mtdf"), ("--book", "use_book"),
                        ("--killers", "killers"), ("--window-parity", "window_parity")):
        word = flag[2:] if getattr(defaults, field) else "no-" + flag[2:]
        assert f"[default: {word}]" in rows[flag], rows[flag]  # as solve's [default: book]
