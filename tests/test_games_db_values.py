"""The explorer's exact values have one convention (issue 36, item 5): a move's value for
the side to move in the explored position, who plays it, as the values under the board and
``c4tui solve --analyze`` give it; the user guide says so with an example, run here."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from c4tui.cli import main

GUIDE = Path(__file__).parent.parent / "docs" / "user-guide.md"
#: games that played 3 in 44 (4435 is 4453's mirror image's line: 3=5 in the symmetric 44)
LINES = "4453\n443\n4435\n"


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code or 0, out.out, out.err


def _example() -> list[tuple[list[str], str]]:
    """The commands of the user guide's example (after 'In `44`') and what it says each
    prints."""
    text = GUIDE.read_text()
    start = text.index("In `44`, White playing 3 loses:")
    block = text[text.index("```text\n", start) + 8:]
    block = block[:block.index("```")]
    runs: list[tuple[list[str], str]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            runs.append((shlex.split(line[2:].partition("#")[0])[1:], ""))
        else:
            argv, said = runs[-1]
            runs[-1] = (argv, said + line + "\n")
    return runs


def test_the_guide_s_example_of_the_explorer_s_values_is_what_the_program_prints(
        tmp_path, capsys):
    games = tmp_path / "games.txt"
    games.write_text(LINES)
    db = tmp_path / "g.sqlite"
    assert _run(["db", "import", str(games), "--db", str(db)], capsys)[0] == 0
    runs = _example()
    assert [argv[:2] for argv, _ in runs] == [["db", "explore"], ["solve", "--analyze"],
                                             ["solve", "443"], ["solve", "44"]]
    for argv, said in runs:
        extra = ["--db", str(db)] if argv[0] == "db" else []
        code, out, err = _run(argv + extra, capsys)
        assert code == 0, err
        assert out == said, argv


def test_one_convention_in_the_explorer_s_json_and_text(tmp_path, capsys):
    """Each move's value: ``solve --analyze``'s for its column, the score after it with
    its sign turned; the best one is the position's own; the table's words agree."""
    games = tmp_path / "games.txt"
    games.write_text("4453\n443\n4432\n4445\n4412\n4467\n")
    db = tmp_path / "g.sqlite"
    assert _run(["db", "import", str(games), "--db", str(db)], capsys)[0] == 0
    _, out, _ = _run(["db", "explore", "44", "--json", "--db", str(db)], capsys)
    exact = {row["move"]: row["exact"] for row in map(json.loads, out.splitlines())}
    _, out, _ = _run(["solve", "--analyze", "44"], capsys)
    columns = [int(v) for v in out.split()[1:]]
    _, out, _ = _run(["solve", "44"], capsys)
    best = int(out.split()[1])
    for move, value in exact.items():
        assert value == columns[move - 1], move
        _, out, _ = _run(["solve", f"44{move}"], capsys)
        assert value == -int(out.split()[1]), move
    assert max(exact.values()) == best
    _, out, _ = _run(["db", "explore", "44", "--db", str(db)], capsys)
    # White is to move in 44: a negative value is Black's win, the positive one White's
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert re.search(r"-2 \(Black wins in \d+\)$", rows["3=5"])
    assert re.search(r"\+1 \(White wins in \d+\)$", rows["4"])
