"""The command line as a whole (c4tui/cli/): one vocabulary, one error style, help, version,
and the new-user problems of issue 13."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from c4tui import __version__
from c4tui.cli import app, main

runner = CliRunner()


def _out(r) -> str:
    try:
        return r.output + r.stderr
    except ValueError:  # stderr mixed into output
        return r.output


def _run_main(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    return info.value.code, capsys.readouterr().err


def test_version(capsys):
    for flag in ("--version", "-V"):
        code, _ = _run_main([flag], capsys)
        assert code == 0
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"c4tui {__version__}"


def _help(*words: str) -> str:
    r = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    return r.output


COMMANDS = (["open"], ["solve"], ["analyze"], ["review"], ["selfplay"], ["bench"], ["book"],
            ["book", "build"], ["book", "info"], ["book", "lookup"])


def options_without_help(help_text: str) -> list[str]:
    """Option rows of rich help whose last cell is a type (``<int>``, ``MB``), not text."""
    bare = []
    for line in help_text.splitlines():
        row = re.sub(r"\s*(\[(default|required)[^\]]*\]\s*)+$", "", line.strip().strip("│").strip())
        if row.startswith("-") and re.search(r"(<\w+>|\b[A-Z]+)$", row):
            bare.append(row.split()[0])
    return bare


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_help_has_text_for_every_option_and_no_rst(words):
    text = _help(*words)
    assert "``" not in text and ":func:" not in text, text
    assert options_without_help(text) == [], text


def test_every_command_of_the_engine_lists_size():
    """--size works anywhere on the command line; each command that runs the engine says
    so in its own help."""
    for words in (["open"], ["solve"], ["analyze"], ["review"], ["selfplay"], ["bench"],
                  ["book"], ["engine"], ["serve"]):
        assert "--size" in _help(*words), words


def test_options_without_help_finds_them():
    import typer

    probe = typer.Typer()

    @probe.command()
    def cmd(x: bool = typer.Option(True, "--x/--no-x"), y: int = typer.Option(1, "--y"),
            z: int = typer.Option(1, "--z", help="Has text.")) -> None:
        """Probe."""

    r = runner.invoke(probe, ["--help"], env={"COLUMNS": "200"})
    assert options_without_help(r.output) == ["--x", "--y"], r.output


def test_one_option_vocabulary():
    """--nodes and --hash everywhere: no --node-limit, no --hash-mb."""
    for words in COMMANDS:
        text = _help(*words)
        assert "--node-limit" not in text and "--hash-mb" not in text, words
    for words in (["open"], ["analyze"], ["selfplay"], ["solve"], ["bench"]):
        assert "--hash" in _help(*words), words
    for words in (["open"], ["analyze"], ["selfplay"]):
        assert "--nodes" in _help(*words), words
    assert "--candidate" in _help("selfplay") and "--baseline" in _help("selfplay")


@pytest.mark.parametrize(
    "argv, message",
    [(["--nodes", "1.0e400"], "c4tui: --nodes 1.0e400: out of range"),
     (["--hash", "1.5"], "c4tui: --hash 1.5: not a whole number of MB"),
     (["solve", "44", "--hash", "1.5"], "c4tui: --hash 1.5: not a whole number of MB"),
     (["solve", "44", "--hash", "99999"], "c4tui: --hash 99999: out of range (1 to 4,096 MB)"),
     (["bench", "--hash", "inf"], "c4tui: --hash 'inf': not a number"),
     (["solve", "44", "--threads", "0"], "c4tui: --threads 0: out of range (1 to 64)"),
     # the parser's own errors: one line too, not a boxed panel under a usage line
     (["--bogusx"], "c4tui: No such option: --bogusx (see 'c4tui open -h')"),
     (["solve", "44", "--threads", "x"], "c4tui: --threads 'x': not a valid integer"),
     (["solve", "--hash"], "c4tui: Option '--hash' requires an argument"),
     (["book", "nosuch"], "c4tui: No such command 'nosuch' (see 'c4tui book -h')")],
)
def test_bad_values_exit_2_with_one_line(argv, message, capsys):
    code, err = _run_main(argv, capsys)
    assert code == 2
    assert err.strip() == err.strip().splitlines()[0] and message in err, err
    assert "Traceback" not in err


def test_a_group_without_its_command_shows_its_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["book"])
    out = capsys.readouterr()
    assert info.value.code == 2 and "crosscheck" in out.out and out.err == ""


def test_open_a_directory_says_so(tmp_path, capsys):
    from c4tui.cli.open import resolve_target

    with pytest.raises(ValueError, match="is a directory, not a game file"):
        resolve_target([str(tmp_path)])
    code, err = _run_main([str(tmp_path)], capsys)
    assert code == 2 and "is a directory" in err and "no such file" not in err


def test_open_a_bad_result_says_not_a_result(tmp_path, capsys):
    (tmp_path / "r.c4g").write_text('[Result "foo"]\n4453\n')
    code, err = _run_main([str(tmp_path / "r.c4g")], capsys)
    assert code == 2 and "Result header 'foo' is not a result" in err, err


def test_bench_without_bitbully(monkeypatch):
    """No BitBully: the hint keeps its [bench], no nan columns, headers fit 80 columns."""
    monkeypatch.setitem(sys.modules, "bitbully", None)  # import bitbully -> ImportError
    r = runner.invoke(app, ["bench", "-n", "1", "-t", "1", "--set", "Test_L2_R2", "--hash", "4"],
                      env={"COLUMNS": "80"})
    text = _out(r)
    assert r.exit_code == 0, text
    assert "pip install 'c4tui[bench]'" in text
    assert "nan" not in text and "peer" not in text
    table = [ln for ln in text.splitlines() if "Test_L2_R2" in ln and "table hits" not in ln]
    assert table and all(len(ln) <= 80 for ln in table)
    assert "…" not in text and "wrong" in text


def test_bench_missing_data_is_one_line(tmp_path):
    r = runner.invoke(app, ["bench", "--data", str(tmp_path), "--set", "Nope", "--no-peer",
                            "-t", "1", "--hash", "4"])
    assert r.exit_code == 2 and "--set Nope: no such benchmark set" in _out(r)


def test_cli_does_not_import_textual():
    """Parsing values and running scripts' commands needs no Textual (units, not the app)."""
    code = ("import sys; import c4tui.cli.main; "
            "print(sorted(m for m in sys.modules if m.startswith(('textual', 'c4tui.app'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stdout + out.stderr


def test_exit_codes_bad_input_2_failure_1(tmp_path, capsys):
    """One policy for every command: 2 for what was typed, 1 for a run that failed."""
    for argv in (["book", "build", "--plies", "50"], ["book", "lookup", "4444444"],
                 ["book", "build", "--hash", "1.5"], ["analyze", "4444444"],
                 ["selfplay", "--openings", "0"]):
        code, err = _run_main(argv, capsys)
        assert code == 2 and err.startswith("c4tui: ") and err.count("\n") == 1, (argv, err)
    damaged = tmp_path / "d.c4b"
    damaged.write_bytes(b"not a book")
    code, err = _run_main(["book", "info", str(damaged)], capsys)
    assert code == 1 and err.startswith("c4tui: ") and err.count("\n") == 1, err
